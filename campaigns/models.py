from django.db import models


class JobRun(models.Model):
    """A background job that ran for a key; the unique pair makes jobs run once per key."""

    name = models.CharField(max_length=100)
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["name", "key"], name="jobrun_once")]

    def __str__(self) -> str:
        return f"{self.name}:{self.key}"
