"""Historical-fix benchmark: boundary bugs real projects fixed, checked before and after the fix."""
