"""The source documents' experiments: their published figures and their reproductions."""
