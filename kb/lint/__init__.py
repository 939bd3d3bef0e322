"""`gpukb lint`: checks of the catalog, one check per module under kb/lint/checks/."""
