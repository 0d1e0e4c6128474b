print("stored: not built yet")
