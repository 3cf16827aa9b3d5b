"""The conformance kit's cases: one JSON file each (docs/CONFORMANCE.md, "The case format")."""
