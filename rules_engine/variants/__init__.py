"""One module per variant; each defines INFO (a VariantInfo) and its Game subclass."""
