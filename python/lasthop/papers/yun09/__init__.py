"""Yun 2009 (seed 004), LL-ELSN over 802.11b: its experiments, analysis, claims and
figures."""
