"""What a figure means: interpretation scales, benchmarks, diagnostics, marginal tests.

Also the choice of coefficient for the data (``selection``) and the list of
disagreements. Built on the coefficients; imports nothing from the families, the
study, the report or the command line.
"""
