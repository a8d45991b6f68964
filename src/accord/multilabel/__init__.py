"""Label sets against a reference: per-label and averaged metrics with intervals.

The agreement coefficients for label sets live in :mod:`accord.coefficients`; this
family imports the layers below it (data, inference, tables, coefficients) only.
"""
