//! Computing salsa queries on several threads. Each thread works on its
//! own handle of the same database (a clone shares the storage), taking
//! the next item from a shared counter; what they compute is memoized, so
//! the sequential pass that follows (and decides every order the output
//! depends on) finds it done. Nothing here changes what a run prints.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The threads a command works on unless told otherwise: the machine's
/// cores (one where the system does not say).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Runs `f` on every item on `jobs` threads (this one included), for
/// its effect on the database's memos. With one job, on this thread: a
/// caller may drop what the memos were computed from once they are.
pub fn warm<D, T, F>(db: &D, items: &[T], jobs: usize, f: F)
where
    D: Clone + Send,
    T: Sync,
    F: Fn(&D, &T) + Sync,
{
    map_with(db, items, jobs, f);
}

/// `f` of every item, on `jobs` threads (this one included), in the
/// items' order.
pub fn map<T, R, F>(items: &[T], jobs: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    map_with(&(), items, jobs, |_, item| f(item))
}

/// [`map`] with a database: each thread works on its own handle of it, and
/// takes runs of neighbouring items, as [`warm`] does.
pub fn map_with<D, T, R, F>(db: &D, items: &[T], jobs: usize, f: F) -> Vec<R>
where
    D: Clone + Send,
    T: Sync,
    R: Send,
    F: Fn(&D, &T) -> R + Sync,
{
    // Many small items (facts) are taken in runs of neighbours, which
    // are mostly of one module and share what they read; few large ones
    // (modules) one at a time, so that the threads finish together.
    let run = (items.len() / (jobs.max(1) * 32)).clamp(1, 16);
    map_runs_with(db, items, &runs(items, run, run, |_, _| true), jobs, f)
}

/// Splits `items` into runs of neighbours, as `(start, end)`: a run grows
/// while it is shorter than `shortest`, or shorter than `longest` and its
/// last item and the next are `alike` (of one module, say).
pub fn runs<T>(items: &[T], shortest: usize, longest: usize, alike: impl Fn(&T, &T) -> bool) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match out.last_mut() {
            Some((start, end))
                if *end - *start < shortest || (*end - *start < longest && alike(&items[*end - 1], item)) =>
            {
                *end = i + 1
            }
            _ => out.push((i, i + 1)),
        }
    }
    out
}

/// [`map_with`] over given runs of the items (which must cover them in
/// order, as [`runs`] makes them): each thread takes the next run.
pub fn map_runs_with<D, T, R, F>(db: &D, items: &[T], runs: &[(usize, usize)], jobs: usize, f: F) -> Vec<R>
where
    D: Clone + Send,
    T: Sync,
    R: Send,
    F: Fn(&D, &T) -> R + Sync,
{
    let jobs = jobs.min(runs.len());
    if jobs <= 1 {
        return items.iter().map(|item| f(db, item)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = |db: D| {
        let mut done = Vec::new();
        while let Some(&(start, end)) = runs.get(next.fetch_add(1, Ordering::Relaxed)) {
            let chunk = items.get(start..end).unwrap_or_default();
            done.extend(chunk.iter().enumerate().map(|(k, item)| (start + k, f(&db, item))));
        }
        done
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let others: Vec<_> = (1..jobs)
            .filter_map(|_| {
                let db = db.clone();
                std::thread::Builder::new().stack_size(crate::STACK_BYTES).spawn_scoped(s, || work(db)).ok()
            })
            .collect();
        let mut all = work(db.clone());
        for h in others {
            // A worker that panicked re-raises here: the run's panic
            // handler reports it (exit 101), never a partial list.
            match h.join() {
                Ok(done) => all.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    // Each worker's results are in order (it takes runs in order), so the
    // list is a few sorted runs one after another: a stable sort merges
    // them in one pass, where an unstable one sorted 20,000 facts afresh
    // on the one thread between the facts and the witnesses.
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// Starts a scoped worker with the stack the main thread has
/// (`STACK_BYTES`): parsing, checking and evaluating recurse as deep as the
/// input nests, and a worker with the default 2 MiB overflowed (and
/// aborted the run) on a project of several deeply nested files. A worker
/// that cannot be started is left out: the calling thread works too, so
/// the work is still done.
pub fn spawn<'scope, F>(s: &'scope std::thread::Scope<'scope, '_>, f: F)
where
    F: FnOnce() + Send + 'scope,
{
    let _ = std::thread::Builder::new().stack_size(crate::STACK_BYTES).spawn_scoped(s, f);
}

/// Work done beside the calling thread's: on a scoped thread of its own
/// where that pays (`on`), else (or where no thread can be started) on the
/// caller's, when it is joined. A panic there panics the joining thread,
/// which the run's handler reports (exit 101).
pub struct Beside<'s, T, F> {
    handle: Option<std::thread::ScopedJoinHandle<'s, T>>,
    work: F,
}

impl<'s, T: Send + 's, F: FnOnce() -> T + Clone + Send + 's> Beside<'s, T, F> {
    pub fn start<'e>(s: &'s std::thread::Scope<'s, 'e>, on: bool, work: F) -> Self {
        let started = work.clone();
        let handle =
            on.then(|| std::thread::Builder::new().stack_size(crate::STACK_BYTES).spawn_scoped(s, started).ok());
        Beside { handle: handle.flatten(), work }
    }

    /// What the work gave, done here if it was not started.
    pub fn join(self) -> T {
        match self.handle {
            Some(h) => h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => (self.work)(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn work_beside_is_done_once_started_or_not() {
        let calls = std::sync::atomic::AtomicUsize::new(0);
        for on in [true, false] {
            let got = std::thread::scope(|s| {
                let work = || {
                    calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    on
                };
                super::Beside::start(s, on, work).join()
            });
            assert_eq!(got, on);
        }
        assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 2, "once each");
    }

    #[test]
    #[should_panic(expected = "beside")]
    fn a_panic_beside_reaches_the_joining_thread() {
        std::thread::scope(|s| super::Beside::start(s, true, || -> u8 { panic!("beside") }).join());
    }

    #[test]
    fn map_keeps_the_items_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for jobs in [0, 1, 2, 3, 8] {
            assert_eq!(super::map(&items, jobs, |x| x * x), want, "{jobs} jobs");
        }
        assert!(super::map(&[] as &[u64], 2, |x| *x).is_empty());
    }

    #[test]
    fn runs_cover_every_item_once_in_order_and_follow_groups() {
        // Items by group: 30, 31, 3, 2, 4, 200, 1.
        let sizes = [30, 31, 3, 2, 4, 200, 1];
        let items: Vec<usize> = sizes.iter().enumerate().flat_map(|(g, n)| std::iter::repeat_n(g, *n)).collect();
        let runs = super::runs(&items, 8, 64, |a, b| a == b);
        let mut next = 0;
        for &(start, end) in &runs {
            assert_eq!(start, next);
            assert!(end > start && end - start <= 64, "{start}..{end}");
            next = end;
        }
        assert_eq!(next, items.len());
        // A group of 30 or 31 is one run; the three small ones share one,
        // which ends with the first group that brings it to eight; the
        // group of 200 is split at 64.
        assert_eq!(&runs[..6], &[(0, 30), (30, 61), (61, 70), (70, 134), (134, 198), (198, 262)]);
        for &(start, end) in &runs[..runs.len() - 1] {
            assert!(end - start == 64 || items[end - 1] != items[end], "{start}..{end}");
        }
        // Fixed-size runs, as `map_with` takes them.
        assert_eq!(super::runs(&[0; 10], 4, 4, |_, _| true), vec![(0, 4), (4, 8), (8, 10)]);
        assert!(super::runs(&[] as &[u8], 8, 64, |a, b| a == b).is_empty());
    }
}
