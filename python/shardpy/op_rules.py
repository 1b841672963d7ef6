"""The op sharding rule table: one entry per op family (see rules.py for the model).

Read it like a spec: each function states, with RuleBuilder calls, which dims of which
operands and results share a factor and of what kind.
"""
from __future__ import annotations

from .rules import FactorKind, RuleBuilder, RuleTable

RULES = RuleTable()
