//! Results of calls already made, reused. Every Claim function is pure
//! (only fact initializers read the world), so a call with the very same
//! arguments gives the very same value. Witnesses of one module call the
//! same derivations over and over — `keyed(candidate)` twice in each of
//! thirty witnesses — and a thread running them keeps one memo.
//!
//! Arguments are compared by identity, not by content: a value's parts are
//! shared (`Arc`), so the same fact read twice is the same pointers, and
//! comparing pointers costs nothing where hashing a whole receipt would
//! cost more than the call. Identity includes the value's origin, so a
//! reused result carries exactly the origins a fresh one would. Each entry
//! keeps its arguments alive, so no pointer is reused while it is a key.
//!
//! Only values are kept. A call that refused runs again, and so builds its
//! refusal (chain, operands, site) afresh; a traced run (`--explain`) does
//! not use the memo at all, so its trace shows every call.
//!
//! A function whose calls are not met again is not kept: most calls made
//! from one witness only (`produced(candidate, b7)`, a key folded over one
//! receipt's tree) never repeat, and keeping each cost a hash, a copy of
//! its arguments and a late free — more than the repeated calls saved
//! (measured in `docs/performance.md`). Each function is tried for
//! `TRIAL` calls; if fewer than one in `PAYS` was met again, its next
//! `RETRY` calls are made without the memo, and then it is tried again (a
//! function may repeat in one module's witnesses and not in another's).
//! Whether a call is kept never changes its value.

use crate::value::{Origin, Value, V};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// More arguments than this and a call is not kept.
const MAX_ARGS: usize = 4;
/// Entries before the memo starts over: its memory stays bounded, and a
/// module's witnesses (which run together) fit many times over.
const MAX_ENTRIES: usize = 4096;
/// Calls of a function looked up before deciding whether keeping them pays.
const TRIAL: u32 = 64;
/// Keeping a function's calls pays if at least one in this many is met again.
const PAYS: u32 = 8;
/// Calls made without the memo before a function that did not pay is tried again.
const RETRY: u32 = 1024;

/// What makes two argument values the same one: variant, payload or
/// pointer, and origin (its place, or its pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
struct ArgId {
    tag: u8,
    payload: usize,
    origin: (u8, u64, u64),
}

fn origin_id(o: Option<&Origin>) -> (u8, u64, u64) {
    let at = |l: &claim_syntax::Loc| (u64::from(l.file.0), u64::from(l.span.start) << 32 | u64::from(l.span.end));
    match o {
        None => (0, 0, 0),
        Some(Origin::Literal(l)) => (1, at(l).0, at(l).1),
        Some(Origin::Json(l)) => (2, at(l).0, at(l).1),
        Some(Origin::Fact(f)) => (3, ptr(f) as u64, 0),
        Some(Origin::Fold(f)) => (4, ptr(f) as u64, 0),
        Some(Origin::Hashed(h)) => (5, ptr(h) as u64, 0),
        Some(Origin::Derived(d)) => (6, ptr(d) as u64, 0),
    }
}

fn ptr<T: ?Sized>(a: &Arc<T>) -> usize {
    Arc::as_ptr(a) as *const () as usize
}

fn identity(v: &Value) -> ArgId {
    let (tag, payload) = match &v.kind {
        V::Bool(b) => (0, usize::from(*b)),
        V::Int(n) => (1, *n as usize),
        V::Duration(n) => (2, *n as usize),
        V::Text(t) => (3, ptr(t)),
        V::Digest(k, d) => (4 + *k as u8, ptr(d)),
        V::List(l) => (10, ptr(l)),
        V::Option(None) => (11, 0),
        V::Option(Some(x)) => (12, ptr(x)),
        V::Map(m) => (13, ptr(m)),
        V::Record(r) => (14, ptr(r)),
        V::Variant(x) => (15, ptr(x)),
        V::Json(j) => (16, ptr(j)),
    };
    ArgId { tag, payload, origin: origin_id(v.origin.as_ref()) }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CallKey {
    function: usize,
    len: u8,
    args: [ArgId; MAX_ARGS],
}

impl CallKey {
    /// The key of calling the function at `function` (its address in the
    /// compiled program) with `args`; `None` with too many arguments.
    pub fn new<'v, T>(
        function: &T,
        args: impl IntoIterator<Item = &'v Value, IntoIter: ExactSizeIterator>,
    ) -> Option<CallKey> {
        let args = args.into_iter();
        if args.len() > MAX_ARGS {
            return None;
        }
        let mut ids = [ArgId::default(); MAX_ARGS];
        let len = args.len();
        for (slot, a) in ids.iter_mut().zip(args) {
            *slot = identity(a);
        }
        Some(CallKey { function: function as *const T as usize, len: len as u8, args: ids })
    }
}

/// One thread's memo, for one evaluator: functions are keyed by their
/// address in the compiled program, which must outlive the memo.
#[derive(Default)]
pub struct CallMemo {
    /// The result, and the arguments it was computed from (kept alive).
    entries: FxHashMap<CallKey, (Value, Vec<Value>)>,
    /// Facts' values by the address of the name a reference holds (a
    /// module's references to one fact share it): looking a fact up by its
    /// name hashed and compared two texts, at every reference.
    facts: FxHashMap<usize, Value>,
    /// How often each function's calls were met again, by its address.
    uses: FxHashMap<usize, Uses>,
}

/// One function's record: calls looked up and met again in its trial, and
/// calls made without the memo since it did not pay.
#[derive(Clone, Copy, Debug, Default)]
struct Uses {
    tried: u32,
    hits: u32,
    skipped: u32,
}

impl CallMemo {
    /// Whether to look up and keep a call of the function at `function`
    /// (see the module comment).
    pub fn wants<T>(&mut self, function: &T) -> bool {
        let u = self.uses.entry(function as *const T as usize).or_default();
        if u.tried < TRIAL || u.hits.saturating_mul(PAYS) >= u.tried {
            return true;
        }
        u.skipped += 1;
        if u.skipped >= RETRY {
            *u = Uses::default();
        }
        false
    }

    pub fn get(&mut self, key: &CallKey) -> Option<Value> {
        let found = self.entries.get(key).map(|(v, _)| v.clone());
        let u = self.uses.entry(key.function).or_default();
        u.tried = u.tried.saturating_add(1);
        u.hits = u.hits.saturating_add(u32::from(found.is_some()));
        found
    }

    pub fn insert(&mut self, key: CallKey, args: Vec<Value>, result: Value) {
        if self.entries.len() >= MAX_ENTRIES {
            self.entries.clear();
        }
        self.entries.insert(key, (result, args));
    }

    /// The value of the fact whose reference holds the name at `name`
    /// (in the compiled program, which must outlive the memo).
    pub fn fact<T>(&self, name: &T) -> Option<Value> {
        self.facts.get(&(name as *const T as usize)).cloned()
    }

    pub fn keep_fact<T>(&mut self, name: &T, value: Value) {
        if self.facts.len() >= MAX_ENTRIES {
            self.facts.clear();
        }
        self.facts.insert(name as *const T as usize, value);
    }

    /// Forgets the calls and facts kept (not what was learnt of which
    /// functions pay): for a thread moving on to another module, whose
    /// calls take other arguments. The entries are freed while they are
    /// still in the cache, not thousands of calls later.
    pub fn start_over(&mut self) {
        self.entries.clear();
        self.facts.clear();
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Origin;
    use claim_syntax::{FileId, Loc, Span};

    fn text(s: &str) -> Value {
        Value::text(s)
    }

    #[test]
    fn the_same_value_is_the_same_key_and_equal_content_is_not() {
        let f = 0u8;
        let a = text("recipe");
        let b = text("recipe");
        let k1 = CallKey::new(&f, std::slice::from_ref(&a));
        let copy = a.clone();
        assert_eq!(k1, CallKey::new(&f, std::slice::from_ref(&copy)), "a clone shares its text");
        assert_ne!(k1, CallKey::new(&f, &[b]), "equal text elsewhere is another value");
    }

    #[test]
    fn origins_and_functions_are_part_of_the_key() {
        let (f, g) = (0u8, 0u8);
        let a = text("x");
        let here = a.clone().with_origin(Origin::Literal(Loc::new(FileId(0), Span::new(0, 1))));
        let plain = CallKey::new(&f, std::slice::from_ref(&a));
        assert_ne!(plain, CallKey::new(&f, &[here]), "another origin");
        assert_ne!(plain, CallKey::new(&g, &[a]), "another function");
    }

    #[test]
    fn scalars_are_compared_by_value_and_arity_counts() {
        let f = 0u8;
        assert_eq!(CallKey::new(&f, &[Value::int(3)]), CallKey::new(&f, &[Value::int(3)]));
        assert_ne!(CallKey::new(&f, &[Value::int(3)]), CallKey::new(&f, &[Value::new(V::Duration(3))]));
        assert_ne!(CallKey::new(&f, &[]), CallKey::new(&f, &[Value::bool(false)]));
        assert!(CallKey::new(&f, &vec![Value::int(1); MAX_ARGS + 1]).is_none());
    }

    #[test]
    fn facts_are_kept_by_the_address_of_their_name_and_stay_bounded() {
        let names: Vec<u64> = (0..(MAX_ENTRIES as u64 + 10)).collect();
        let mut m = CallMemo::default();
        for (i, n) in names.iter().enumerate() {
            m.keep_fact(n, Value::int(i as i64));
        }
        assert!(m.facts.len() <= MAX_ENTRIES);
        let last = names.last().expect("names");
        assert_eq!(m.fact(last).and_then(|v| v.as_int()), Some(MAX_ENTRIES as i64 + 9));
        let same_number_elsewhere = *last;
        assert!(m.fact(&same_number_elsewhere).is_none(), "another address is another name");
    }

    #[test]
    fn a_function_whose_calls_never_repeat_is_left_out_then_tried_again() {
        let (f, g) = (0u8, 0u8);
        let mut m = CallMemo::default();
        for i in 0..TRIAL as i64 {
            assert!(m.wants(&f), "on trial");
            let args = vec![Value::int(i)];
            let key = CallKey::new(&f, &args).expect("one argument");
            assert!(m.get(&key).is_none());
            m.insert(key, args, Value::int(i));
        }
        assert!(!m.wants(&f), "no call was met again");
        assert!(m.wants(&g), "another function is on its own trial");
        for _ in 1..RETRY {
            assert!(!m.wants(&f));
        }
        assert!(m.wants(&f), "tried again after RETRY calls");

        // A function met again often enough stays kept.
        let h = 0u8;
        let args = vec![Value::int(7)];
        let key = CallKey::new(&h, &args).expect("one argument");
        m.insert(key, args, Value::int(14));
        for _ in 0..(4 * TRIAL) {
            assert!(m.wants(&h));
            assert_eq!(m.get(&key).and_then(|v| v.as_int()), Some(14));
        }
    }

    #[test]
    fn the_memo_stays_bounded() {
        let f = 0u8;
        let mut m = CallMemo::default();
        for i in 0..(MAX_ENTRIES as i64 + 10) {
            let args = vec![Value::int(i)];
            let key = CallKey::new(&f, &args).expect("one argument");
            m.insert(key, args, Value::int(i * 2));
        }
        assert!(m.len() <= MAX_ENTRIES);
        let key = CallKey::new(&f, &[Value::int(MAX_ENTRIES as i64 + 9)]).expect("one argument");
        assert_eq!(m.get(&key).and_then(|v| v.as_int()), Some(2 * (MAX_ENTRIES as i64 + 9)));
    }

    #[test]
    fn starting_over_forgets_calls_and_facts_but_not_which_functions_pay() {
        let (f, name) = (0u8, 0u8);
        let mut m = CallMemo::default();
        for i in 0..TRIAL as i64 {
            assert!(m.wants(&f));
            let args = vec![Value::int(i)];
            let key = CallKey::new(&f, &args).expect("one argument");
            assert!(m.get(&key).is_none());
            m.insert(key, args, Value::int(i));
        }
        m.keep_fact(&name, Value::int(1));
        m.start_over();
        assert!(m.is_empty(), "no call is kept");
        assert!(m.fact(&name).is_none(), "no fact is kept");
        assert!(!m.wants(&f), "a function that did not pay is still left out");
    }
}
