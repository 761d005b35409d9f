"""Choosing where batch stages run, and the in-process executor's protocol (no cluster started)."""

from __future__ import annotations

import pytest

from redactdesk.pipeline.executor import (
    DEFAULT_MIN_TASKS,
    ExecutorConfig,
    ExecutorError,
    InProcess,
    Task,
    machine_cores,
    open_executor,
    resolve_config,
)
from redactdesk.pipeline.progress import Cancelled


class Settings:
    def __init__(self, **values):
        self.values = {k.replace("_", "."): v for k, v in values.items()}

    def setting(self, key, default=None):
        return self.values.get(key, default)


def test_options_win_over_project_settings_over_environment():
    project = Settings(executor_workers=3, executor_scheduler=None)
    env = {"REDACTDESK_WORKERS": "5", "REDACTDESK_SCHEDULER": "tcp://env:8786"}
    assert resolve_config("2", None, project, env) == ExecutorConfig(workers=2)
    assert resolve_config(None, "tcp://head:8786", project, env) == ExecutorConfig(scheduler="tcp://head:8786")
    assert resolve_config(None, None, project, env) == ExecutorConfig(workers=3)
    assert resolve_config(None, None, Settings(executor_scheduler="tcp://p:1"), env).scheduler == "tcp://p:1"
    assert resolve_config(None, None, None, env) == ExecutorConfig(scheduler="tcp://env:8786")
    assert resolve_config(None, None, None, {"REDACTDESK_WORKERS": "4"}) == ExecutorConfig(workers=4)


def test_default_is_one_worker_per_core_and_small_jobs_stay_here():
    config = resolve_config(None, None, None, {})
    assert config.workers is None and config.local_workers() == machine_cores()
    assert config.min_tasks == DEFAULT_MIN_TASKS > 2
    assert ExecutorConfig(workers=1).in_process and not ExecutorConfig(scheduler="tcp://h:1").in_process


@pytest.mark.parametrize("bad", ["0", "-1", "two", "1.5", "99999"])
def test_a_bad_worker_count_is_refused_without_repeating_it(bad):
    with pytest.raises(ExecutorError, match="whole number") as err:
        resolve_config(bad, None, None, {})
    assert bad not in str(err.value).replace("1024", "")


def test_a_bad_scheduler_address_is_refused():
    with pytest.raises(ExecutorError, match="scheduler address"):
        resolve_config(None, "tcp://a b:1", None, {})


def test_cli_refuses_a_bad_worker_count_with_exit_2(tmp_path, capsys):
    from redactdesk.cli.main import main
    from redactdesk.store import Project

    Project.create(tmp_path / "p.rdproj").close()
    assert main(["detect", str(tmp_path / "p.rdproj"), "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_every_batch_stage_takes_workers_and_scheduler():
    from redactdesk.cli.main import build_parser

    parser = build_parser()
    for stage in (["transcribe", "P"], ["detect", "P"], ["mask", "P", "--out", "O"], ["export", "P", "--out", "O"]):
        args = parser.parse_args([*stage, "--workers", "3", "--scheduler", "tcp://h:8786"])
        assert (args.workers, args.scheduler) == ("3", "tcp://h:8786")


def test_in_process_runs_in_order_reports_progress_and_stops_on_cancel():
    seen: list[float] = []
    tasks = [Task(key=str(i), args=(i,), weight=i + 1) for i in range(3)]
    out = list(InProcess().run(lambda x: x * 10, tasks, progress=lambda f, m: seen.append(f)))
    assert [(t.key, r) for t, r in out] == [("0", 0), ("1", 10), ("2", 20)]
    assert seen == sorted(seen) and seen[-1] == 1.0
    done: list[str] = []
    with pytest.raises(Cancelled):
        for task, _ in InProcess().run(lambda x: x, tasks, cancel=lambda: len(done) >= 1):
            done.append(task.key)
    assert done == ["0"]


def test_lazy_task_arguments_are_made_when_the_task_runs():
    made: list[int] = []
    tasks = [Task(key=str(i), load=lambda i=i: (made.append(i) or i,)) for i in range(2)]
    with open_executor(ExecutorConfig(workers=1)) as executor:
        assert isinstance(executor, InProcess)
        results = executor.run(lambda x: x + 1, tasks)
        assert made == []
        assert [r for _, r in results] == [1, 2] and made == [0, 1]


def test_batches_keep_every_worker_busy_and_a_default_job_of_eight_calls_on_the_cluster():
    from redactdesk.pipeline.executor import batch_size

    class Cluster:
        workers = 2
        config = ExecutorConfig(min_tasks=DEFAULT_MIN_TASKS)

    assert batch_size(Cluster(), 160, 4, 8) == 8  # capped
    assert batch_size(Cluster(), 24, 4, 8) == 3  # 8 tasks for 2 workers
    for n in range(DEFAULT_MIN_TASKS, 40):
        size = batch_size(Cluster(), n, 4, 8)
        assert -(-n // size) >= DEFAULT_MIN_TASKS  # enough tasks to start the cluster
    assert batch_size(InProcess(), 5, 4, 8) == 1
