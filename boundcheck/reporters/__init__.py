"""Output formats: each module renders a run's findings for one audience."""
