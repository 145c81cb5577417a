"""The Cabin by the Sea (solo): build suit stacks from sea, cabin and beach. Rulings C1–C7."""
