"""Balakrishnan, Padmanabhan, Seshan, Katz 1997 (seed 000), "A Comparison of Mechanisms for
Improving TCP Performance over Wireless Links": Sec. IV's tables and figures
(``lasthop reproduce balakrishnan97``, ``balakrishnan97-baseline``,
``balakrishnan97-table3``; ``--only`` one of its tables or figures).

- :mod:`~lasthop.papers.balakrishnan97.published`: Tables II-IV and the peaks as printed;
- :mod:`~lasthop.papers.balakrishnan97.experiments`: the cells to measure, by selection;
- :mod:`~lasthop.papers.balakrishnan97.claims`: the paper's claims and the explanations
  of the deviations;
- :mod:`~lasthop.papers.balakrishnan97.tables`: the terminal tables;
- :mod:`~lasthop.papers.balakrishnan97.report`: Figs. 3-12 and the report's tables;
- :mod:`~lasthop.papers.balakrishnan97.paper`: all of it as a
  :class:`lasthop.reproduction.paper.Paper`.
"""
