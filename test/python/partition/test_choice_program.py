"""choice_program: the integer program finds the joint optimum that one group at a time
cannot reach; local search improves what it can; combinations stay bounded."""
from __future__ import annotations

from dataclasses import dataclass, field

from shardpy.partition.choice_program import (MAX_COMBINATIONS, combinations, descend,
                                              integer_program)


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


def test_the_integer_program_moves_a_whole_chain():
    groups, terms = chain(6)
    report = {}
    choice, before, after = integer_program(groups, terms, report)
    assert choice == [1] * 6
    assert before == 6.0 and after == 3.0
    assert report["solver_status"] == 0


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
