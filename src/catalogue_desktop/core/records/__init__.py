"""What a record is: the eight kinds, the pydantic models, decoding with per-record problems, the
typed errors, the differences between two snapshots and certificates' levels resolved. The bottom
of the core: it imports no other subsystem."""
