"""The speed machinery of shardpy-insert-reshards: what it remembers, and why.

Large programs have tens of thousands of ops but few distinct (op kind, shapes,
shardings): choosing a plan (plan_choice) plans reshards for every candidate, so the
pass chooses once per distinct case and reuses the answer. Everything here trades
memory for time and none of it changes what the pass produces:

  placement keys     `same_layout` compares shardings by a key made once per sharding
                     object (shardings are immutable; equality would walk their axes)
  region counts      program_ops asks each op name once whether its ops hold regions
  PlanCache          per pass: rules per (op name, types, attributes), plans per
                     (rule, operand and result shardings by identity, ...), one object
                     per distinct sharding (so identity stands for equality in keys),
                     conversions per pair of shardings
  PlanMemo           per pass: the parts of choosing a plan that many plans share
                     (plan_choice): a sharding's projection onto a rule's factors, the
                     factor axes and placements derived from them, a placement's
                     compute time; the whole-program choice plans each op under every
                     combination of its values' candidates, and most parts repeat

Keys holding `id(sharding)` keep the sharding alive next to the key, so the id cannot
be reused by another object while the key is in use.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from jaxlib.mlir import ir

from ..ops.registry import local_entry
from ..sharding.model import TensorSharding
from ..sharding.op_rule import RULE_ATTR, FactorKind, OpRule, RuleTable, shape_of
from .choice_calls import hoisted
from .layouts import has_uses, plain

if TYPE_CHECKING:
    from .plan_choice import OpPlan

_LAYOUT_KEYS: dict[int, tuple] = {}  # id(sharding) -> (sharding, key); shardings are immutable


def placement_key(s: TensorSharding | None):
    """What places the data: the mesh (its axes and device order, not its symbol's
    name), axes per dim, partial axes. No sharding, and a replicated one on the empty
    mesh `<[]>`, mean the same: the whole value on every device."""
    if s is None:
        return None
    found = _LAYOUT_KEYS.get(id(s))
    if found is not None and found[0] is s:
        return found[1]
    whole = not s.unreduced and not any(d.axes for d in s.dims)
    key = (None if whole and s.mesh.is_empty
           else (s.mesh, None) if whole
           else (s.mesh, tuple(d.axes for d in s.dims), frozenset(s.unreduced)))
    if len(_LAYOUT_KEYS) > 100_000:
        _LAYOUT_KEYS.clear()
    _LAYOUT_KEYS[id(s)] = (s, key)
    return key


def whole(s: TensorSharding) -> bool:
    """Nothing sharded or partial (on whichever mesh)."""
    key = placement_key(s)
    return key is None or key[1] is None


def same_layout(a: TensorSharding | None, b: TensorSharding | None) -> bool:
    """Equal placement of data: the same mesh (axes and device order), axes per dim and
    partial axes (flags ignored). An unannotated value is whole on every device, so it
    differs from one replicated on a mesh of fewer devices than the program's: a move
    onto another mesh is never skipped (it may be a relabel that moves nothing; the
    reshard planner knows)."""
    return a is b or placement_key(a) == placement_key(b)


def layout_key(sharding: TensorSharding):
    return (sharding.mesh_name, sharding.mesh, tuple(d.axes for d in sharding.dims),
            frozenset(sharding.unreduced))


# op name -> whether ops of that name hold regions (None: varies, ask each op). Ops
# registered with a fixed number of regions answer per name: the walk asks no op twice.
HAS_REGIONS: dict[str, bool | None] = {}


def region_count_fixed(op: ir.Operation):
    if not op.name.startswith(("stablehlo.", "chlo.", "sdy.", "func.", "mhlo.")):
        return None
    return bool(len(op.regions))


# Plan key of a reduce whose plan cannot depend on how it combines (reductions_whole).
ANY_COMBINE = "any"


def reductions_whole(rule: OpRule | None, operand_shardings, result_shardings) -> bool:
    """No operand shards a dim holding a reduction factor and nothing is partial. Then
    how a reduce combines partial results cannot change its plan: the planner takes a
    reduction factor's axes only from the operands' (or partial results') shardings,
    and partial sums come only from sharded reduction factors or partial operands."""
    if rule is None:
        return False
    for sharding in result_shardings:
        if sharding is not None and sharding.unreduced:
            return False
    kinds = rule.kinds
    for mapping, sharding in zip(rule.operands, operand_shardings):
        if sharding is None:
            continue
        if sharding.unreduced:
            return False
        for dim, factors in zip(sharding.dims, mapping):
            if dim.axes and any(kinds[f] is FactorKind.REDUCTION for f in factors):
                return False
    return True


def decide_moves(plan: OpPlan, operand_shardings, result_shardings) -> None:
    """Fill in what applying `plan` to an op with these shardings takes (the checks
    reshard_operand and reshard_result would make, made once per plan)."""
    plan.moved_operands = tuple(
        i for i, (have, target) in enumerate(zip(operand_shardings, plan.operands))
        if target is not None and not same_layout(have, target))
    plan.results_changed = not all(p is r or p == r
                                   for p, r in zip(plan.results, result_shardings))
    plan.moved_results = tuple(
        i for i, (have, want) in enumerate(zip(plan.results, result_shardings))
        if not (want is None and (have is None or not have.unreduced))
        and not (want is not None and same_layout(have, want)))


class PlanMemo:
    """Answers by key for one pass (plan_choice.choose_plan's parts). Keys hold ids;
    `keep` holds the objects behind them, so no id is reused while the memo lives.
    `ir_frozen`: no op's operands or uses change while it lives (answers read from
    them may be kept too)."""

    __slots__ = ("found", "_alive", "ir_frozen")

    def __init__(self, ir_frozen: bool = False):
        self.found: dict = {}
        self._alive: list = []
        self.ir_frozen = ir_frozen

    def keep(self, key, alive, value):
        self._alive.append(alive)
        self.found[key] = value
        return value


class PlanCache:
    """The per-pass memos of shardpy-insert-reshards. `choose(op, rule, entry, combine,
    operand_shardings, result_shardings, template)` makes a plan on a miss
    (plan_choice.choose_plan, passed in: the choice sits above this module)."""

    def __init__(self, table: RuleTable, choose, ir_frozen: bool = False,
                 costs_only: bool = False):
        self.table = table
        self.choose = choose
        # The whole-program choice reads only a plan's estimated time: its shardings are
        # then neither interned nor checked against the op's (decide_moves).
        self.costs_only = costs_only
        self._rules: dict = {}      # (name, types, attributes) -> (token, rule)
        self._plans: dict = {}      # (rule token, shardings by identity, ...) -> OpPlan
        self._interned: dict = {}   # sharding -> one object per distinct sharding
        self._caching: dict[str, str] = {}  # op name -> RuleTable.caching
        # (id(have), id(want)) -> (have, want, what make(have, want) gave): the
        # shardings kept alive so their ids stay theirs.
        self._conversion_kinds: dict = {}
        self.memo = PlanMemo(ir_frozen)  # handed to `choose`

    def caching_of(self, name: str) -> str:
        """RuleTable.caching(name), asked once per op name ("shapes": elementwise)."""
        found = self._caching.get(name)
        if found is None:
            found = self._caching[name] = self.table.caching(name)
        return found

    def intern(self, sharding):
        if sharding is None:
            return None
        return self._interned.setdefault(sharding, sharding)

    def closed(self, sharding: TensorSharding | None) -> TensorSharding | None:
        """plain(sharding), interned, computed once per sharding object."""
        if sharding is None:
            return None
        key = ("closed", id(sharding))
        found = self._interned.get(key)
        if found is None or found[0] is not sharding:
            closed = self.intern(plain(sharding, sharding.dims))
            if closed == sharding:
                closed = sharding
            found = self._interned[key] = (sharding, closed)
        return found[1]

    def per_pair(self, have: TensorSharding, want: TensorSharding, make) -> tuple:
        """make(have, want) (a tuple), once per pair of sharding objects."""
        key = (id(have), id(want))
        found = self._conversion_kinds.get(key)
        if found is None or found[0] is not have or found[1] is not want:
            found = self._conversion_kinds[key] = (have, want) + make(have, want)
        return found[2:]

    def rule(self, op: ir.Operation, name: str, operands: list, results: list):
        """(token, rule): one rule per distinct op name, types and attributes, or per op
        where the rule reads more of the IR (a concatenate's producers, a scatter's
        body, a custom call's users: RuleTable.caching). The token, a small int per
        key, stands for the key in plan keys (hashing the key again would ask each of
        its types and attributes for its hash again)."""
        attrs = op.attributes
        key = (name, tuple([v.type for v in operands]), tuple([r.type for r in results]))
        caching = self.caching_of(name)
        own_rule = RULE_ATTR in attrs
        if caching != "shapes" or own_rule:  # elementwise: shapes say it all
            # All attributes, the op's sharding among them: reading them by name costs
            # more, and plans are per sharding anyway (a rule per plan at most).
            key += tuple(attrs.values())
        if not own_rule and caching == "ir":
            key += (object(),)  # never shared: this op's rule and plans are its own
        found = self._rules.get(key)
        if found is None:
            if own_rule:
                rule = OpRule.from_attr(attrs[RULE_ATTR])
            else:
                rule = self.table.build(op, [shape_of(t) for t in key[1]],
                                        [shape_of(t) for t in key[2]])
                entry = local_entry(op)
                if rule is not None and entry is not None and entry.rule is not None:
                    rule = entry.rule(op, rule)  # how the op is placed on shards
            found = self._rules[key] = (len(self._rules), rule)
        return found

    def op_facts(self, op: ir.Operation, name: str, operands: list, results: list,
                 sources: set, reduce_body: bool = True) -> tuple:
        """What plan() reads of `op` besides shardings: ((token, rule), LOCAL_OPS entry,
        how it combines, its variant, which operands `sources` makes and the loop trips
        their reshards are hoisted from (choice_calls.hoisted), which results are
        used). A caller planning one op under many shardings (the whole-program choice)
        reads them once and passes them to each plan(). Without `reduce_body`, a
        reduce's combine is left None (plan() reads its body only where it matters)."""
        entry = local_entry(op, name)
        reads = entry is not None and entry.combine and (
            reduce_body or name != "stablehlo.reduce")
        return (self.rule(op, name, operands, results), entry,
                entry.combine(op) if reads else None,
                entry.variant(op) if entry is not None and entry.variant else None,
                (tuple([v in sources for v in operands]), hoisted(op, operands, self.memo)),
                tuple(map(has_uses, results)))

    def plan(self, op: ir.Operation, name: str, operands: list, results: list,
             operand_shardings, result_shardings, template: TensorSharding,
             sources: set, facts: tuple | None = None) -> OpPlan:
        """The op's plan, chosen once per distinct rule, combine, variant, operand and
        result shardings, operands an iota or constant makes (`sources`: remade for
        free) and results nobody reads: all a plan's cost reads of the op. `facts`:
        op_facts' answer for this op, if the caller has it."""
        if facts is None:
            facts = self.op_facts(op, name, operands, results, sources, reduce_body=False)
        (rule_token, rule), entry, combine, variant, made, used = facts
        # How reductions combine matters too (a sum leaves partials, a max finishes
        # itself), and it depends on the op's body, which the rule key does not hold.
        combine_key = combine
        if name == "stablehlo.reduce" and entry is not None and entry.combine:
            if reductions_whole(rule, operand_shardings, result_shardings):
                combine_key = ANY_COMBINE  # reading the body can wait for a plan miss
            elif combine is None:
                combine = combine_key = entry.combine(op)
        plan_key = (rule_token, combine_key, variant, tuple(map(id, operand_shardings)),
                    tuple(map(id, result_shardings)), made, used)
        plan = self._plans.get(plan_key)
        if plan is None:
            if combine_key is ANY_COMBINE and combine is None:
                combine = entry.combine(op)
            plan = self.choose(op, rule, entry, combine, operand_shardings,
                               result_shardings, template, memo=self.memo)
            if not self.costs_only:
                plan.operands = [self.intern(s) for s in plan.operands]
                plan.results = [self.intern(s) for s in plan.results]
                decide_moves(plan, operand_shardings, result_shardings)
            # Keep the shardings of the key alive: their ids are part of the key.
            self._plans[plan_key] = plan
            self._interned.setdefault(("keep", plan_key),
                                      (operand_shardings, result_shardings))
        return plan
