"""ElAarag 2002 (seed 002), "Improving TCP Performance over Mobile Networks": Table I,
TCP Tahoe over a two-state error model at two bit error rates (``lasthop reproduce
elaarag02``).

- :mod:`~lasthop.papers.elaarag02.published`: Table I as printed;
- :mod:`~lasthop.papers.elaarag02.claims`: its claims (none beyond the table) and the
  explanation of the cell far from the published one;
- :mod:`~lasthop.papers.elaarag02.paper`: the experiments, the terminal table and the
  report's part (:class:`lasthop.reproduction.paper.Paper`).
"""
