-- wrk: blocking runs of the four-node benchmark workflow; KEY comes from the environment.
wrk.method = "POST"
wrk.body = '{"inputs": {"name": "bench"}, "response_mode": "blocking", "user": "bench"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("KEY")
