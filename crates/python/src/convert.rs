//! Conversions between Python values and the core's: readers, options, JSON
//! views, errors.

use plateau_core::{AnyMatch, Options, Reader};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

/// A `ValueError` with the message of any error of the core.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A reader from Python: a seat number, `"spectator"` or `"referee"`
/// (`None`: the referee).
pub fn reader(m: &dyn AnyMatch, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Reader> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Reader::Referee);
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(value_error("a reader is a seat number, \"spectator\" or \"referee\", not a bool"));
    }
    if let Ok(seat) = obj.extract::<i64>() {
        return Ok(Reader::Seat(seat_index(m, seat)?));
    }
    if let Ok(text) = obj.extract::<String>() {
        return match text.to_ascii_lowercase().as_str() {
            "spectator" => Ok(Reader::Spectator),
            "referee" => Ok(Reader::Referee),
            _ => Err(value_error(format!("a reader is a seat number, \"spectator\" or \"referee\", not {text:?}"))),
        };
    }
    Err(value_error("a reader is a seat number, \"spectator\" or \"referee\""))
}

/// A seat number checked against the match.
pub fn seat_index(m: &dyn AnyMatch, seat: i64) -> PyResult<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < m.seats())
        .ok_or_else(|| value_error(format!("seat {seat} does not exist: this game has seats 0 to {}", m.seats() - 1)))
}

/// Options from a Python dict: values may be strings, integers, booleans
/// (written `true`/`false`) or `None` (written `none`).
pub fn options(dict: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut o = Options::new();
    if let Some(d) = dict {
        for (k, v) in d.iter() {
            let k: String =
                k.extract().map_err(|_| value_error(format!("option names are strings, not {}", k.get_type())))?;
            let v = if v.is_none() {
                "none".to_string()
            } else if let Ok(b) = v.cast::<PyBool>() {
                if b.is_true() { "true" } else { "false" }.to_string()
            } else if let Ok(s) = v.cast::<PyString>() {
                s.to_string()
            } else {
                v.str()?.to_string()
            };
            o.set(k, v);
        }
    }
    Ok(o)
}

/// A JSON value as Python objects (dict, list, str, int, float, bool, None).
pub fn json<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(json(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// A NumPy array of `dtype` (`"float32"`, `"int8"`) and `shape` whose
/// `len` bytes (native byte order) `fill` writes, starting from zeros: the
/// bytes are written once, into a `bytearray` the array is a view of
/// (writable, owned by NumPy). NumPy is imported on the first call (the
/// package depends on it).
pub fn numpy_array<'py>(
    py: Python<'py>,
    len: usize,
    dtype: &str,
    shape: &[usize],
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy").map_err(|e| {
        pyo3::exceptions::PyImportError::new_err(format!("observation tensors and masks need NumPy: {e}"))
    })?;
    let bytes = pyo3::types::PyByteArray::new_with(py, len, |b| {
        fill(b);
        Ok(())
    })?;
    np.call_method1("frombuffer", (bytes, dtype))?.call_method1("reshape", (pyo3::types::PyTuple::new(py, shape)?,))
}
