"""The reproduction framework: what ``lasthop reproduce`` does with any paper.

- :mod:`~lasthop.reproduction.registry`: the papers, found by name under
  :mod:`lasthop.papers`, loaded when asked for;
- :mod:`~lasthop.reproduction.paper`: the interface a paper implements;
- :mod:`~lasthop.reproduction.reproduce`: runs a selection's cells and checks the papers'
  claims on them;
- :mod:`~lasthop.reproduction.jobs`: runs of embedded scenarios in a process pool;
- :mod:`~lasthop.reproduction.experiment` and :mod:`~lasthop.reproduction.throughput`:
  the cells papers measure;
- :mod:`~lasthop.reproduction.claims`: claims, their verdicts and the deviations;
- :mod:`~lasthop.reproduction.report`: the HTML report of a reproduction.

The terminal tables and the HTML report's parts are :mod:`lasthop.render` and
:mod:`lasthop.report`. None of these imports a paper: papers import them.
"""
