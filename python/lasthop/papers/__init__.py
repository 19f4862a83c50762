"""The source documents' reproductions: one package per paper (``balakrishnan97``,
``elaarag02``, ``balakrishnan99``, ``yun09``), each with its experiments, claims,
published values, tables and figures, found by name by
:mod:`lasthop.reproduction.registry`. A paper imports the framework
(:mod:`lasthop.reproduction`, :mod:`lasthop.render`, :mod:`lasthop.report`); the framework
imports no paper."""
