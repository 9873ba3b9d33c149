//! Panics inside a library this crate calls, caught without a word on stderr: the Parquet
//! reader's, and `faer`'s (the decompositions, [`crate::udf`]).
//!
//! arrow-rs panics on some malformed files (docs/src/testing.md, "Known issues"). The scan catches such a
//! panic and fails the query with "the Parquet reader failed on a malformed file: <the panic's
//! message>" ([`super::scan::reader_panic`]), naming the file. Rust's panic hook would still
//! print the panic to stderr first, as if the process had crashed. While the reader's code runs
//! under [`catch`], [`catch_future`] or [`catch_stream`], a panic hook installed once (it
//! hands every other panic to the hook it replaced) stays quiet: the message reaches the user
//! once, in the query's error.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Once;
use std::task::{Context, Poll};

use futures::{Future, Stream};

thread_local! {
    /// How many quiet scopes this thread is inside.
    static QUIET: Cell<usize> = const { Cell::new(0) };
}

static HOOK: Once = Once::new();

/// Installs the hook (once per process).
fn install() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
}

/// A quiet scope: entered on creation, left on drop (on unwinding too).
struct Quiet;

impl Quiet {
    fn enter() -> Self {
        install();
        QUIET.with(|q| q.set(q.get() + 1));
        Self
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        QUIET.with(|q| q.set(q.get().saturating_sub(1)));
    }
}

/// `f()`, a panic in it returned as `Err` and not printed.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    let _quiet = Quiet::enter();
    catch_unwind(AssertUnwindSafe(f))
}

/// `future`'s output, a panic while it is polled returned as `Err` and not printed.
pub(crate) fn catch_future<F: Future>(
    future: F,
) -> impl Future<Output = std::thread::Result<F::Output>> {
    let mut future = Box::pin(future);
    let mut done = false;
    futures::future::poll_fn(move |cx: &mut Context<'_>| {
        if done {
            return Poll::Pending;
        }
        match catch(|| future.as_mut().poll(cx)) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => {
                done = true;
                Poll::Ready(Ok(output))
            }
            Err(panic) => {
                done = true;
                Poll::Ready(Err(panic))
            }
        }
    })
}

/// `stream`'s items, a panic while it is polled returned as one `Err` item that ends it, and
/// not printed (the stream's state is dropped with it).
pub(crate) fn catch_stream<S: Stream + Send + 'static>(
    stream: S,
) -> impl Stream<Item = std::thread::Result<S::Item>> + Send {
    let mut stream: Option<Pin<Box<S>>> = Some(Box::pin(stream));
    futures::stream::poll_fn(move |cx: &mut Context<'_>| {
        let Some(inner) = stream.as_mut() else {
            return Poll::Ready(None);
        };
        match catch(|| inner.as_mut().poll_next(cx)) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(Some(item))) => Poll::Ready(Some(Ok(item))),
            Ok(Poll::Ready(None)) => {
                stream = None;
                Poll::Ready(None)
            }
            Err(panic) => {
                stream = None;
                Poll::Ready(Some(Err(panic)))
            }
        }
    })
}

/// A caught panic's message.
pub(crate) fn message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(ToString::to_string)
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

#[cfg(test)]
mod tests {
    use futures::StreamExt;

    use super::*;

    #[test]
    fn a_panic_is_returned_and_the_stream_ends() {
        let stream = futures::stream::iter([1, 2, 3]).map(|i| {
            assert!(i != 2, "two");
            i
        });
        let items: Vec<_> = futures::executor::block_on(catch_stream(stream).collect());
        assert_eq!(items.len(), 2);
        assert_eq!(*items[0].as_ref().unwrap(), 1);
        let panic = items[1].as_ref().unwrap_err();
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"two"));
        assert_eq!(QUIET.with(Cell::get), 0);
    }

    #[test]
    fn a_future_panic_is_returned() {
        let out = futures::executor::block_on(catch_future(async { panic!("inner") }));
        assert!(out.is_err());
        assert!(catch(|| 5).is_ok_and(|v| v == 5));
    }
}
