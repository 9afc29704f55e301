"""The pipeline's steps over a run: extract (a file or byte range into the work directory),
select (the decision table, the page-type model, de-duplication, splits and site balance) and
train (the page-type model).

A new stage goes here. May import every other `pipeline` subpackage and `filters`.
"""
