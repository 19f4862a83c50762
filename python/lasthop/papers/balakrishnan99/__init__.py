"""Balakrishnan, Padmanabhan, Katz 1999 (seed 001): its experiments (the simulations', the
testbed's), claims and figures."""
