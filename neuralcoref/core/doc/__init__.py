"""A Doc read once: its token arrays, labels matched against the rules' sets, speakers
and quotations."""
