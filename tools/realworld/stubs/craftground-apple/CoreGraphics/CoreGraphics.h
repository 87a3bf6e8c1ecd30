// Self-written: empty stand-in (nothing of it is used by the DLPack code).
