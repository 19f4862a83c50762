"""ElAarag 2002 (seed 002), Table I: its published values and its claims."""
