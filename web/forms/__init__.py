"""The pages' forms, one module per page subject (web/forms/<subject>.py)."""
