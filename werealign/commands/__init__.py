"""One module per CLI command; each keeps heavy imports inside its functions."""
