"""The reproduction framework: what ``lasthop reproduce`` does with any paper.

- :mod:`~lasthop.reproduction.jobs`: runs of embedded scenarios in a process pool;
- :mod:`~lasthop.reproduction.experiment`: a cell to measure;
- :mod:`~lasthop.reproduction.claims`: claims, their verdicts and the deviations.

None of these imports a paper: papers import them.
"""
