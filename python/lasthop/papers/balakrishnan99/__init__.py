"""Balakrishnan, Padmanabhan, Katz 1999 (seed 001), "The effects of asymmetry on TCP
performance": bandwidth asymmetry (T1-T4), latency and media-access asymmetry (F14, T5-T7,
F11-F13, F15) and the testbed (F19-F21) (``lasthop reproduce balakrishnan99``).

- :mod:`~lasthop.papers.balakrishnan99.experiments`: the simulations' cells and what they
  measure;
- :mod:`~lasthop.papers.balakrishnan99.testbed`: the testbed's cells;
- :mod:`~lasthop.papers.balakrishnan99.claims` (with ``claims_latency`` and
  ``claims_testbed``): the paper's claims and the explanations of the deviations;
- :mod:`~lasthop.papers.balakrishnan99.tables`: the terminal tables;
- :mod:`~lasthop.papers.balakrishnan99.figures` and ``figures_testbed``: the figures;
  :mod:`~lasthop.papers.balakrishnan99.report`: the report's part;
- :mod:`~lasthop.papers.balakrishnan99.paper`: all of it as a
  :class:`lasthop.reproduction.paper.Paper`.
"""
