"""The base class of scheduling policies written in Python (docs/python.md, "Policies")."""


class Policy:
    """A scheduling policy: subclass it and implement select(view).

    At each scheduling pass batfill calls select with a read-only batfill.View of the instant
    (the waiting jobs in queue order, the running jobs' planned ends, the free nodes, and the
    core's tools: view.timeline() and view.profile()). It returns the jobs of view.queue to
    start now, in the order they start; batfill picks their machines. Times are ints of
    microseconds (batfill.SECOND), batfill.NEVER for "never".

    Two class attributes tell the scheduler how the policy plans:
    plans_with_predictions: it plans with job.planned_runtime (the predictor's runtime, by
        default the walltime); False: the settings' predictor changes nothing it sees.
    follows_backfill_order: it honours view.backfill_order (the backfill_order setting,
        "sjbf" is refused otherwise, as for batfill's own policies).
    """

    plans_with_predictions = True
    follows_backfill_order = False

    def select(self, view):
        raise NotImplementedError(f"{type(self).__name__} must implement select(view)")
