"""`gpukb lint`: checks of the catalog and of the rule base against it, one check per module under kb/lint/checks/."""
