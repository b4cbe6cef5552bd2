"""Prints cluster_test.py's figures as a table: python summarize.py FIGURES.json"""

import json
import sys

ROUNDS = (("one_node", "1 worker node"), ("two_nodes", "2 worker nodes"), ("fault", "2 nodes, 1 killed"),
          ("fault_replaced", "2 nodes, 1 killed, replaced"))


def main(path: str) -> None:
    with open(path) as file:
        figures = json.load(file)
    print(f"inputs {figures['inputs']} {figures['kinds']}; {figures['cores']} cores; "
          f"binary alone: {figures['direct_pictures_per_second']} pictures/s, "
          f"{figures['direct_cpu_ms_per_picture']} ms of CPU per picture; "
          f"{figures['alone_checked']} files checked against `detect --json FILE`")
    print(f"{'round':30} {'job s':>7} {'pict/s':>7} {'rows':>5} {'once':>5} {'errors':>6} {'same faces':>10} "
          f"{'problems':>8} {'load':>5}")
    for key, label in ROUNDS:
        if key not in figures:
            continue
        round_ = figures[key]
        check = round_["check"]
        print(f"{label:30} {round_['seconds']:7.2f} {round_['pictures_per_second']:7.1f} {check['rows']:5d} "
              f"{check['distinct_paths']:5d} {check['errors']:6d} {check['faces_text_identical']:10d} "
              f"{check['problem_count']:8d} {round_['load_average']:5.1f}")
        injected = round_.get("injected")
        if injected:
            replacement = injected.get("replacement_joined_after_seconds")
            print(f"{'':30} SIGKILL after {injected.get('after_seconds')} s to {injected.get('killed')} processes "
                  f"({injected.get('blazeface_killed')} blazeface); replacement node: "
                  f"{'after %s s' % replacement if replacement is not None else 'none'}; Ray: "
                  f"{round_['ray']['tasks_resubmitted']} batch tasks resubmitted, "
                  f"{round_['ray']['actors_restarted']} actor restarted")
    print("failures:", figures["failures"] or "none")


if __name__ == "__main__":
    main(sys.argv[1])
