//! `block_on_workers` runs the served future on a worker (where idle workers collect their
//! heaps), hands its output back, and lets its panic through.

#[test]
#[should_panic(expected = "the server's own panic")]
fn a_panic_in_the_served_future_panics_in_the_caller() {
    let _ = launcher::block_on_workers(async { panic!("the server's own panic") });
}

#[test]
fn the_served_future_runs_on_a_worker_and_its_output_comes_back() {
    let caller = std::thread::current().id();
    let (ran_on, answer) =
        launcher::block_on_workers(async { (std::thread::current().id(), 42) }).expect("a runtime");
    assert_ne!(ran_on, caller, "the future should run on a worker, where idle collection happens");
    assert_eq!(answer, 42);
}
