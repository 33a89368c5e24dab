"""Steps any importer of human games needs, below the WereBench importer (which is one user of them)."""
