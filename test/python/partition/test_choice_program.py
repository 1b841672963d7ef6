"""choice_program: elimination and the integer program find the joint optimum that one
group at a time cannot reach (elimination: the same optimum as brute force, ties to
propagation's candidate, too wide a program left to the integer program); local search
improves what it can; combinations stay bounded."""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

import pytest

from shardpy.partition import choice_program
from shardpy.partition.choice_program import (MAX_COMBINATIONS, combinations, descend,
                                              eliminate, integer_program)


@dataclass
class Group:
    candidates: list
    first: int = 0
    values: list = field(default_factory=list)


def chain(n: int):
    """n groups of two candidates (0: propagation's, 1: the alternative); each pair of
    neighbours costs 1 when they differ (a reshard between them), and each group alone
    costs 1 in candidate 0 and 0.5 in candidate 1 (its op computes faster there)."""
    groups = [Group(["p", "a"]) for _ in range(n)]
    terms = [([g], {(0,): 1.0, (1,): 0.5}) for g in range(n)]
    terms += [([g, g + 1], {(0, 0): 0.0, (0, 1): 1.0, (1, 0): 1.0, (1, 1): 0.0})
              for g in range(n - 1)]
    return groups, terms


@pytest.mark.parametrize("solve,solver", [(integer_program, "integer program"),
                                          (eliminate, "elimination")])
def test_the_exact_choices_move_a_whole_chain(solve, solver):
    groups, terms = chain(6)
    report = {}
    choice, before, after = solve(groups, terms, report)
    assert choice == [1] * 6
    assert before == 6.0 and after == 3.0
    assert report["solver"] == solver


def _total(terms, choice) -> float:
    return sum(table.get(tuple(choice[g] for g in distinct), math.inf)
               for distinct, table in terms)


def _random_program(rng: random.Random, n: int):
    """n groups of 1-4 candidates; terms over 1-3 random groups (some combinations of a
    3-group term unlisted: not allowed), every all-zeros combination listed."""
    groups = [Group(list(range(rng.randint(1, 4)))) for _ in range(n)]
    terms = []
    for _ in range(2 * n):
        distinct = rng.sample(range(n), rng.randint(1, min(3, n)))
        table = {}
        for combo in itertools.product(*[range(len(groups[g].candidates)) for g in distinct]):
            if any(combo) and len(distinct) == 3 and rng.random() < 0.3:
                continue
            table[combo] = rng.choice([0.0, 0.5, 1.0, rng.random()])
        terms.append((distinct, table))
    return groups, terms


@pytest.mark.parametrize("seed", range(40))
def test_elimination_finds_what_brute_force_finds(seed):
    rng = random.Random(seed)
    groups, terms = _random_program(rng, rng.randint(2, 7))
    best = min(_total(terms, c) for c in itertools.product(
        *[range(len(g.candidates)) for g in groups]))
    choice, before, after = eliminate(groups, terms, {})
    assert after == pytest.approx(best) and _total(terms, choice) == pytest.approx(best)
    assert before == _total(terms, [0] * len(groups))
    if len(groups) <= 5:  # and the integer program agrees
        assert integer_program(groups, terms, {})[2] == pytest.approx(best)


def test_elimination_keeps_propagations_candidate_on_ties():
    groups = [Group(["p", "a", "b"]) for _ in range(3)]
    flat = {c: 1.0 for c in itertools.product(range(3), range(3))}
    terms = [([0, 1], flat), ([1, 2], dict(flat)), ([2], {(0,): 0.0, (1,): 0.0, (2,): 0.0})]
    assert eliminate(groups, terms, {})[0] == [0, 0, 0]


def test_elimination_handles_a_group_every_term_reads():
    """A hub (a mask every layer reads) is eliminated last, after its neighbours."""
    n = 3000
    groups = [Group(["p", "a"]) for _ in range(n + 1)]
    terms = [([0, g], {(0, 0): 1.0, (0, 1): 1.0, (1, 0): 1.0, (1, 1): 0.0})
             for g in range(1, n + 1)]
    choice, before, after = eliminate(groups, terms, {})
    assert choice == [1] * (n + 1) and before == n and after == 0.0


def test_elimination_leaves_too_wide_a_program_to_the_integer_program(monkeypatch):
    monkeypatch.setattr(choice_program, "MAX_TABLE", 8)
    groups = [Group(["p", "a"]) for _ in range(5)]
    # every pair tied: eliminating any group builds a table over all 5 (32 > 8)
    terms = [([a, b], {(0, 0): 0.0, (0, 1): 1.0, (1, 0): 1.0, (1, 1): 0.0})
             for a, b in itertools.combinations(range(5), 2)]
    assert eliminate(groups, terms, {}) is None
    assert integer_program(groups, terms, {})[0] is not None


def test_local_search_stops_where_one_move_does_not_pay():
    groups, terms = chain(6)
    # Moving any single group alone costs 1 or 2 more in reshards than it saves (0.5).
    choice, total = descend(groups, terms)
    assert choice == [0] * 6 and total == 6.0


def test_local_search_takes_single_moves_that_pay():
    groups = [Group(["p", "a"]), Group(["p", "a"])]
    terms = [([0], {(0,): 2.0, (1,): 0.0}), ([0, 1], {(0, 0): 0.0, (1, 0): 0.5,
                                                      (0, 1): 0.5, (1, 1): 0.0})]
    choice, total = descend(groups, terms)
    assert choice == [1, 1] and total == 0.0


def test_combinations_are_bounded():
    assert len(list(combinations([2, 3]))) == 6
    many = list(combinations([4] * 5))  # 1024 > MAX_COMBINATIONS: one group at a time
    assert 4 ** 5 > MAX_COMBINATIONS and len(many) == 1 + 5 * 3
    assert many[0] == (0,) * 5
