"""Balakrishnan, Padmanabhan, Seshan, Katz 1997 (seed 000): its published tables and its
claims."""
