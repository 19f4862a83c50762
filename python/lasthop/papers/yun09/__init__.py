"""Yun 2009 (seed 004), link-layer-originated loss notification (LL-ELSN) over 802.11b:
E1, E3, E7, E10-E14 (``lasthop reproduce yun09``).

- :mod:`~lasthop.papers.yun09.experiments`: the cells to measure and what they measure;
- :mod:`~lasthop.papers.yun09.analysis`: the overhead and delay analysis (Eqs. 1-4);
- :mod:`~lasthop.papers.yun09.claims`: the paper's claims and the explanations of the
  deviations;
- :mod:`~lasthop.papers.yun09.tables`: the terminal tables;
- :mod:`~lasthop.papers.yun09.figures`: the figures; :mod:`~lasthop.papers.yun09.report`:
  the report's part;
- :mod:`~lasthop.papers.yun09.paper`: all of it as a
  :class:`lasthop.reproduction.paper.Paper`.
"""
