"""Issue 28: the claims catch a mechanism broken on purpose.

Each test runs part of a paper's reproduction on its defaults (10 seeds, the paper's run
lengths) with one mechanism switched off (the scenario field ``mutations``), and requires
that some pinned verdict changes (a claim's holds / fails, or the set of far cells); the
same part without the mutation must match the pinned verdicts, so the test fails on the
real engine only if the golden file is stale. Seed 001's ACK filtering and seed 004's
ERSN, ELN and snoop mutations are in the papers' own test files.
"""

from __future__ import annotations

import pytest

from lasthop.reproduction import verdicts
from lasthop.reproduction.reproduce import run_reproduction


def changed(paper: str, tables: list[str], mutation: str | None) -> list[str]:
    """The pinned verdicts (holds/fails, far cells) that a run of ``tables`` of ``paper``
    with ``mutation`` changes."""
    sets = (f'mutations=["{mutation}"]',) if mutation else ()
    part = run_reproduction(paper, checks=False, extra_sets=sets, tables=tables).parts[0]
    want_claims, want_far = verdicts.decided(verdicts.load(paper), tables)
    got_claims, got_far = verdicts.decided(verdicts.measured(part), tables)
    out = [
        f"{cid}: pinned {want_claims[cid]}, now {status}"
        for cid, status in got_claims.items()
        if want_claims.get(cid) != status
    ]
    out += [f"cell {k} now far" for k in sorted(got_far - want_far)]
    out += [f"cell {k} now within the band" for k in sorted(want_far - got_far)]
    return out


CASES = [
    # (mutation, paper, tables): the smallest part of the reproduction that catches it.
    ("snoop_never_retransmits", "balakrishnan97", ["peak", "table2"]),
    ("smart_echo_ignored", "balakrishnan97", ["table2", "table3", "table5"]),
    ("eln_ignored", "balakrishnan97", ["table3"]),
]


@pytest.mark.parametrize(("mutation", "paper", "tables"), CASES)
def test_a_broken_mechanism_flips_a_pinned_verdict(
    mutation: str, paper: str, tables: list[str]
) -> None:
    assert changed(paper, tables, None) == [], "the golden file is stale for this part"
    caught = changed(paper, tables, mutation)
    assert caught, f"no claim of {paper} catches {mutation}"
    print(f"{mutation} caught by: {'; '.join(caught)}")
