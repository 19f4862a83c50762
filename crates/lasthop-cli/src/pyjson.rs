//! JSON written byte for byte as Python's `json.dumps` writes it, compact
//! (`separators=(",", ":")`) or with `indent=N`, so that the native `lasthop
//! run --format json` prints what the Python command prints (which parses the
//! core's JSON and dumps it again).
//!
//! serde_json's [`CompactFormatter`] and its [`PrettyFormatter`] with an
//! N-space indent already lay out objects and arrays as Python does
//! (`"key": value`, one item per line, `[]` and `{}` when empty). Two things
//! differ and are done here:
//!
//! - **Floats** are written as Python's `repr` writes them: the same
//!   shortest round-trip digits, but fixed notation while the decimal
//!   exponent is in -4..16 (`1e-05`, `0.0001`, `1e+16`,
//!   `1234567890123456.0`), and a sign and at least two digits in an
//!   exponent (CPython's `float_repr_style` "short", `format_float_short`
//!   with mode `r`).
//! - **Strings** are ASCII (`ensure_ascii=True`): every character outside
//!   space..`~` (DEL included) is `\uXXXX`, in UTF-16 surrogate pairs
//!   beyond the BMP; the short escapes `\" \\ \n \r \t \b \f` as both write
//!   them.
//!
//! Non-finite floats never reach a formatter: serde_json writes them as
//! `null`, which Python reads back as `None` and writes as `null` too.

use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};
use std::io::{self, Write};

/// The most spaces an indent may have (`lasthop run --indent`'s bound).
pub const MAX_INDENT: usize = 16;
const SPACES: &[u8; MAX_INDENT] = b"                ";

/// [`CompactFormatter`] or [`PrettyFormatter`] with Python's floats and
/// ASCII strings.
pub struct PyFormatter {
    pretty: Option<PrettyFormatter<'static>>,
}

impl PyFormatter {
    /// Compact, or indented by `indent` spaces (at most [`MAX_INDENT`]).
    pub fn new(indent: Option<usize>) -> PyFormatter {
        PyFormatter { pretty: indent.map(|n| PrettyFormatter::with_indent(&SPACES[..n.min(MAX_INDENT)])) }
    }
}

/// A layout method: the pretty formatter's when indenting, else the
/// compact one's.
macro_rules! layout {
    ($name:ident $(, $arg:ident: $ty:ty)*) => {
        fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            match &mut self.pretty {
                Some(pretty) => pretty.$name(w $(, $arg)*),
                None => CompactFormatter.$name(w $(, $arg)*),
            }
        }
    };
}

/// Python's `repr` of a float whose shortest round-trip form is `exp`,
/// Rust's `{:e}` text (`-1.2345e-7`, `0e0`).
fn python_repr(exp: &str) -> String {
    let (sign, rest) = match exp.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", exp),
    };
    let (mantissa, e) = rest.split_once('e').expect("{:e} writes an exponent");
    let e: i32 = e.parse().expect("{:e} writes an integer exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    // The decimal point sits `decpt` digits into `digits`.
    let decpt = e + 1;
    let n = digits.len() as i32;
    let body = if decpt <= -4 || decpt > 16 {
        let (first, tail) = digits.split_at(1);
        let x = decpt - 1;
        let frac = if tail.is_empty() { String::new() } else { format!(".{tail}") };
        format!("{first}{frac}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
    } else if decpt <= 0 {
        format!("0.{}{digits}", "0".repeat((-decpt) as usize))
    } else if decpt >= n {
        format!("{digits}{}.0", "0".repeat((decpt - n) as usize))
    } else {
        let (int, frac) = digits.split_at(decpt as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{body}")
}

impl Formatter for PyFormatter {
    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        w.write_all(python_repr(&format!("{value:e}")).as_bytes())
    }

    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        // Python reads the f32's shortest text as a double, whose repr has the
        // same digits (at most 9 of them round-trip through a double).
        w.write_all(python_repr(&format!("{value:e}")).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        if fragment.bytes().all(|b| (b' '..=b'~').contains(&b)) {
            return w.write_all(fragment.as_bytes());
        }
        let mut units = [0u16; 2];
        for c in fragment.chars() {
            if (' '..='~').contains(&c) {
                w.write_all(&[c as u8])?;
            } else {
                for unit in c.encode_utf16(&mut units) {
                    write!(w, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }

    fn write_char_escape<W: ?Sized + Write>(&mut self, w: &mut W, escape: CharEscape) -> io::Result<()> {
        let s: &[u8] = match escape {
            CharEscape::Quote => b"\\\"",
            CharEscape::ReverseSolidus => b"\\\\",
            CharEscape::Solidus => b"/",
            CharEscape::Backspace => b"\\b",
            CharEscape::FormFeed => b"\\f",
            CharEscape::LineFeed => b"\\n",
            CharEscape::CarriageReturn => b"\\r",
            CharEscape::Tab => b"\\t",
            CharEscape::AsciiControl(byte) => return write!(w, "\\u{:04x}", byte),
        };
        w.write_all(s)
    }

    layout!(begin_array);
    layout!(end_array);
    layout!(begin_array_value, first: bool);
    layout!(end_array_value);
    layout!(begin_object);
    layout!(end_object);
    layout!(begin_object_key, first: bool);
    layout!(end_object_key);
    layout!(begin_object_value);
    layout!(end_object_value);
}

/// Write `value` to `out` as `json.dumps(value, indent=indent)` writes it
/// (`None`: with `separators=(",", ":")`).
pub fn dump<T: serde::Serialize, W: Write>(value: &T, indent: Option<usize>, out: W) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, PyFormatter::new(indent));
    value.serialize(&mut ser)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(x: f64) -> String {
        python_repr(&format!("{x:e}"))
    }

    #[test]
    fn floats_read_as_python_writes_them() {
        // Each right-hand side is CPython 3.11's repr of the left.
        let cases: [(f64, &str); 18] = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (123.456, "123.456"),
            (1e15, "1000000000000000.0"),
            (1234567890123456.0, "1234567890123456.0"),
            (1e16, "1e+16"),
            (1.2345678901234568e20, "1.2345678901234568e+20"),
            (1e100, "1e+100"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (0.30000000000000004, "0.30000000000000004"),
            (2.0 / 3.0, "0.6666666666666666"),
        ];
        for (x, want) in cases {
            assert_eq!(repr(x), want, "{x:e}");
        }
    }

    #[test]
    fn documents_read_as_python_writes_them() {
        let v = serde_json::json!({"a": [1, 2.5, {}], "b": [], "c": "é\u{7f}\u{1F600}\"\n\u{1}", "d": null, "e": true});
        let text = |indent| {
            let mut out = Vec::new();
            dump(&v, indent, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        // json.dumps({...}, indent=2) in CPython 3.11.
        let want = "{\n  \"a\": [\n    1,\n    2.5,\n    {}\n  ],\n  \"b\": [],\n  \
                    \"c\": \"\\u00e9\\u007f\\ud83d\\ude00\\\"\\n\\u0001\",\n  \"d\": null,\n  \"e\": true\n}";
        assert_eq!(text(Some(2)), want);
        // json.dumps({...}, separators=(",", ":")).
        let want =
            "{\"a\":[1,2.5,{}],\"b\":[],\"c\":\"\\u00e9\\u007f\\ud83d\\ude00\\\"\\n\\u0001\",\"d\":null,\"e\":true}";
        assert_eq!(text(None), want);
        // json.dumps([1, []], indent=0).
        assert_eq!(
            String::from_utf8({
                let mut o = Vec::new();
                dump(&serde_json::json!([1, []]), Some(0), &mut o).unwrap();
                o
            })
            .unwrap(),
            "[\n1,\n[]\n]"
        );
    }
}
