"""ElAarag 2002 (seed 002), "Improving TCP Performance over Mobile Networks" (``lasthop
reproduce elaarag02``): Table I, TCP Tahoe over a two-state error model at two bit error
rates, and its transfer times (:mod:`~lasthop.papers.elaarag02.transfer`); Fig. 2's
narrative of the periodic disconnections (:mod:`~lasthop.papers.elaarag02.fig2`); the
survey's disconnection mechanisms on Fig. 2's schedule, X-1
(:mod:`~lasthop.papers.elaarag02.x1`); the blackout study
(:mod:`~lasthop.papers.elaarag02.blackout`); snoop's multicast handoff, the snoop paper's
Table 1 (:mod:`~lasthop.papers.elaarag02.snoop_ho`).

- :mod:`~lasthop.papers.elaarag02.published`: Table I as printed;
- :mod:`~lasthop.papers.elaarag02.claims`: the checkable claims of every part (Table I's
  reading, TABLE1-*, Tahoe's narrative, X-1, SNOOP-HO-1) and the explanations of those
  that fail;
- :mod:`~lasthop.papers.elaarag02.paper`: the experiments, the terminal table and the
  report's part (:class:`lasthop.reproduction.paper.Paper`).
"""
