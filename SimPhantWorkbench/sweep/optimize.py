"""The ``[optimize]`` design: Optuna chooses each next variant from the finished ones.

The engine asks for a variant (``ask``: an Optuna trial, its values suggested in
each variable's range), converts and simulates it like any other variant (on the
same executor: the local cluster or a scheduler, ``parallel`` trials in flight) and
tells the result (``tell``). Samplers (``SAMPLERS``):

* ``tpe``: Tree-structured Parzen Estimator (multivariate; constraints; one or several
  objectives; with parallel trials the "constant liar" keeps them apart);
* ``cmaes``: CMA-ES (one objective, two or more variables; infeasible trials are told
  as failed, so it learns only from feasible ones);
* ``random``: random search (a baseline); ``nsga2``: NSGA-II (several objectives).

Constraints ``METRIC <= BOUND`` reach the samplers that take them as Optuna's
``constraints_func`` values (<= 0 feasible). A variant that failed (the model) or was
lost (the infrastructure) is told as a failed trial. Optuna is optional: without it an
``[optimize]`` specification is refused naming the package.

References: J. Bergstra, R. Bardenet, Y. Bengio, B. Kegl, "Algorithms for
hyper-parameter optimization", NIPS 2011 (TPE); N. Hansen, "The CMA evolution
strategy: a tutorial", arXiv:1604.00772 (CMA-ES); T. Akiba, S. Sano, T. Yanase, T. Ohta,
M. Koyama, "Optuna: a next-generation hyperparameter optimization framework", KDD 2019.
"""
import math
import warnings

from ..solver import ModelError

__all__ = ["Optimizer", "import_optuna", "constraint_values"]


def import_optuna():
    """The ``optuna`` module, or ``ModelError`` naming the package to install."""
    try:
        import optuna
    except ImportError:
        raise ModelError("an [optimize] specification needs Optuna, which is not installed "
                         "(Debian: apt install python3-optuna; make setup installs it)") \
            from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def constraint_values(spec, row):
    """Optuna's constraint values of ``row`` (<= 0 feasible) for ``spec.constraints`` (a
    strict bound counts as the inclusive one here; ``Spec.feasible`` judges exactly)."""
    out = []
    for name, op, bound in spec.constraints:
        v = row[name]
        if math.isnan(v):
            out.append(math.inf)
        else:
            out.append(v - bound if op in ("<=", "<") else bound - v)
    return out


def _sampler(optuna, opt, spec):
    seed = opt.get("seed")
    constraints = (lambda trial: trial.user_attrs["constraints"]) if spec.constraints else None
    with warnings.catch_warnings():            # constraints and the liar are "experimental"
        warnings.simplefilter("ignore")
        if opt["sampler"] == "tpe":
            return optuna.samplers.TPESampler(seed=seed, multivariate=True,
                                              constant_liar=True, constraints_func=constraints)
        if opt["sampler"] == "cmaes":
            try:                              # Optuna imports it only at the first trial
                import cmaes  # noqa: F401
            except ImportError:
                raise ModelError("optimize: the cmaes sampler needs the cmaes package, which "
                                 "is not installed (Debian: apt install python3-cmaes; make "
                                 "setup installs it)") from None
            return optuna.samplers.CmaEsSampler(seed=seed)
        if opt["sampler"] == "nsga2":
            return optuna.samplers.NSGAIISampler(seed=seed, constraints_func=constraints,
                                                 population_size=max(
                                                     4, min(50, opt["trials"] // 4)))
        return optuna.samplers.RandomSampler(seed=seed)


class Optimizer:
    """Ask-and-tell over an Optuna study (see the module docstring).

    ``n``: trials; ``parallel``: trials in flight at once (``[optimize] parallel``,
    default the executor's workers).
    """

    def __init__(self, spec, nominal, workers):
        optuna = import_optuna()
        self.optuna = optuna
        self.spec = spec
        opt = spec.optimize
        self.n = opt["trials"]
        self.parallel = opt.get("parallel") or max(1, workers)
        self.bounds = [v.bounds(nominal.get(v.name, 0.0)) for v in spec.variables]
        directions = [sense for sense, _m in spec.objectives]
        self.takes_constraints = opt["sampler"] in ("tpe", "nsga2")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.study = optuna.create_study(directions=directions,
                                             sampler=_sampler(optuna, opt, spec))
        self.trials = {}

    def may_ask(self, in_flight):
        return in_flight < self.parallel

    def ask(self, index):
        """The values of the next variant (its trial kept under ``index``)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trial = self.study.ask()
            values = [trial.suggest_float(v.name, lo, hi)
                      for v, (lo, hi) in zip(self.spec.variables, self.bounds)]
        self.trials[index] = trial
        return values

    def tell(self, row):
        """Tell the finished variant ``row`` to its trial."""
        trial = self.trials.pop(row["variant"], None)
        if trial is None:
            return
        names = [m for _s, m in self.spec.objectives]
        fail = self.optuna.trial.TrialState.FAIL
        if row["status"] != "ok" or any(math.isnan(row[m]) for m in names):
            self.study.tell(trial, state=fail)
            return
        if self.spec.constraints:
            g = constraint_values(self.spec, row)
            if not self.takes_constraints and any(x > 0 for x in g):
                self.study.tell(trial, state=fail)
                return
            trial.set_user_attr("constraints", g)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.study.tell(trial, [row[m] for m in names])
