# Hexaflow's python3 worker: reads one JSON request per line on stdin, {"code": ..., "inputs": {...}},
# runs the code's main(**inputs) in fresh globals, and writes one JSON answer per line:
# {"ok": <result>} or {"error": "<Type>: <message>"}. What the code prints goes to stderr, so that it
# can never corrupt the answers. It ends when stdin closes.
import json
import os
import sys


def apply_limits():
    limit = int(os.environ.get("HEXAFLOW_PYTHON_MEMORY_BYTES", "0") or "0")
    if limit <= 0:
        return
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def serve():
    apply_limits()
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            scope = {"__name__": "__main__", "__builtins__": __builtins__}
            exec(compile(request["code"], "<code>", "exec"), scope)
            main = scope.get("main")
            if not callable(main):
                raise NameError("name 'main' is not defined")
            answer = {"ok": main(**request.get("inputs", {}))}
            text = json.dumps(answer, ensure_ascii=False)
        except MemoryError:
            text = json.dumps({"error": "MemoryError: the code used more memory than it may"})
        except BaseException as error:
            text = json.dumps({"error": type(error).__name__ + ": " + str(error)}, ensure_ascii=False)
        answers.write(text + "\n")
        answers.flush()


serve()
