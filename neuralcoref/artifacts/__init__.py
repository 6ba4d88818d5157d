"""Model artifacts: model folders (reading, checking, writing), ensembles, tuning."""
