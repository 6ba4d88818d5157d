"""Mention extraction (rule-based, over the Doc's arrays) and the expletive filter;
mentions kept for the linker."""
