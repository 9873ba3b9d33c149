//! The logical and physical extension codecs: Ballista's own, plus each tensor call's planning
//! state ([`CallState`]) and the root marker of a plan submitted by this crate's client.
//!
//! Everything this codec adds starts with [`MAGIC`] and a kind byte; anything else is
//! Ballista's (or DataFusion's) and goes to the wrapped codec as it is, so a plan without tensor
//! calls encodes exactly as with Ballista's codecs alone.

use std::fmt;
use std::sync::Arc;

use arrow::datatypes::{Field, FieldRef, Schema};
use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::common::{DataFusionError, ScalarValue, TableReference};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::error::Result;
use datafusion::execution::TaskContext;
use datafusion::logical_expr::{AggregateUDF, Extension, HigherOrderUDF, LogicalPlan, ScalarUDF};
use datafusion::physical_expr_common::physical_expr::proto_decode::PhysicalExprDecodeCtx;
use datafusion::physical_expr_common::physical_expr::proto_encode::PhysicalExprEncodeCtx;
use datafusion::physical_plan::{ExecutionPlan, PhysicalExpr};
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};
use datafusion_proto::protobuf;
use prost::Message;

use super::plan::{TensorPlanRoot, restore_plan};
use datafusion_tensor::limits::Limits;
use datafusion_tensor::udf::call_state::CallState;
use datafusion_tensor::udf::registry::{
    Registered, higher_order_call_state, higher_order_with_state, registry, scalar_call_state,
    scalar_with_state,
};
use datafusion_tensor::udf::{CallInputs, TensorAggregate};
use datafusion_tensor::variable_shape::AnyTensorType;

/// The first bytes of everything this codec encodes itself.
pub const MAGIC: &[u8; 4] = b"DFT\x01";

/// What follows [`MAGIC`].
const KIND_WRAPPED: u8 = 0;
const KIND_CALL: u8 = 1;
const KIND_ROOT: u8 = 2;
const KIND_AGGREGATE_LIMITS: u8 = 3;

/// The function methods of both codecs (`LogicalExtensionCodec` and `PhysicalExtensionCodec`
/// declare them alike): this crate's calls encoded with their state ([`encode_udf`],
/// [`encode_higher_order`]), every other function by the wrapped codec `self.inner`.
macro_rules! forward_functions {
    () => {
        fn try_decode_udf(&self, name: &str, buf: &[u8]) -> Result<Arc<ScalarUDF>> {
            decode_udf(name, buf).unwrap_or_else(|| self.inner.try_decode_udf(name, buf))
        }

        fn try_encode_udf(&self, node: &ScalarUDF, buf: &mut Vec<u8>) -> Result<()> {
            if encode_udf(node, buf)? {
                return Ok(());
            }
            self.inner.try_encode_udf(node, buf)
        }

        fn try_decode_higher_order_function(
            &self,
            name: &str,
            buf: &[u8],
        ) -> Result<Arc<HigherOrderUDF>> {
            decode_higher_order(name, buf)
                .unwrap_or_else(|| self.inner.try_decode_higher_order_function(name, buf))
        }

        fn try_encode_higher_order_function(
            &self,
            node: &HigherOrderUDF,
            buf: &mut Vec<u8>,
        ) -> Result<()> {
            if encode_higher_order(node, buf)? {
                return Ok(());
            }
            self.inner.try_encode_higher_order_function(node, buf)
        }

        fn try_decode_udaf(&self, name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
            decode_udaf(name, buf).unwrap_or_else(|| self.inner.try_decode_udaf(name, buf))
        }

        fn try_encode_udaf(&self, node: &AggregateUDF, buf: &mut Vec<u8>) -> Result<()> {
            if encode_udaf(node, buf)? {
                return Ok(());
            }
            self.inner.try_encode_udaf(node, buf)
        }
    };
}

/// One tensor call's planning state on the wire.
#[derive(Clone, PartialEq, Message)]
struct CallStateProto {
    /// 1: planned scalar call, 2: `tensor_typed`, 3: higher-order call.
    #[prost(uint32, tag = "1")]
    kind: u32,
    /// The argument fields, with their metadata (a schema may repeat names).
    #[prost(message, optional, tag = "2")]
    fields: Option<protobuf::Schema>,
    /// One entry per argument: its literal value, or none.
    #[prost(message, repeated, tag = "3")]
    literals: Vec<LiteralProto>,
    /// The instance's settings (`TensorFunction::settings`).
    #[prost(uint64, repeated, tag = "4")]
    settings: Vec<u64>,
    /// `tensor_typed`'s tensor type, as a field with its metadata.
    #[prost(message, optional, tag = "5")]
    tensor: Option<protobuf::Field>,
    /// `tensor_typed`'s column name.
    #[prost(string, optional, tag = "6")]
    name: Option<String>,
    /// Whether `literal_arguments` is given.
    #[prost(bool, tag = "7")]
    has_literal_arguments: bool,
    /// Which arguments were literals as written.
    #[prost(bool, repeated, tag = "8")]
    literal_arguments: Vec<bool>,
    /// Whether `fields` and `literals` are given (a higher-order call's pinned inputs).
    #[prost(bool, tag = "9")]
    has_inputs: bool,
    /// A planned call's (or an aggregate's) session limits (`datafusion_tensor::limits`).
    #[prost(uint64, optional, tag = "10")]
    max_tensor_elements: Option<u64>,
    /// With `max_tensor_elements`.
    #[prost(uint64, optional, tag = "11")]
    max_batch_bytes: Option<u64>,
}

#[derive(Clone, PartialEq, Message)]
struct LiteralProto {
    #[prost(message, optional, tag = "1")]
    value: Option<protobuf::ScalarValue>,
}

fn codec_error(what: &str, err: impl fmt::Display) -> DataFusionError {
    DataFusionError::Internal(format!("tensor codec: {what}: {err}"))
}

fn encode_inputs(inputs: &CallInputs, out: &mut CallStateProto) -> Result<()> {
    let schema = Schema::new(inputs.fields.clone());
    out.fields =
        Some(protobuf::Schema::try_from(&schema).map_err(|e| codec_error("argument fields", e))?);
    out.literals = inputs
        .scalars
        .iter()
        .map(|value| {
            Ok(LiteralProto {
                value: value
                    .as_ref()
                    .map(protobuf::ScalarValue::try_from)
                    .transpose()
                    .map_err(|e| codec_error("literal argument", e))?,
            })
        })
        .collect::<Result<_>>()?;
    out.has_inputs = true;
    Ok(())
}

fn decode_inputs(proto: &CallStateProto) -> Result<CallInputs> {
    let schema = proto
        .fields
        .as_ref()
        .map(Schema::try_from)
        .transpose()
        .map_err(|e| codec_error("argument fields", e))?
        .unwrap_or_else(Schema::empty);
    let fields: Vec<FieldRef> = schema.fields().iter().cloned().collect();
    let scalars = proto
        .literals
        .iter()
        .map(|literal| {
            literal
                .value
                .as_ref()
                .map(ScalarValue::try_from)
                .transpose()
                .map_err(|e| codec_error("literal argument", e))
        })
        .collect::<Result<Vec<_>>>()?;
    if scalars.len() != fields.len() {
        return Err(codec_error(
            "call state",
            format!("{} fields but {} literals", fields.len(), scalars.len()),
        ));
    }
    let scalars = scalars
        .into_iter()
        .zip(&fields)
        .map(|(value, field)| restore_float16(value, field.data_type()))
        .collect::<Result<Vec<_>>>()?;
    Ok(CallInputs { fields, scalars })
}

/// datafusion-proto writes a `Float16` scalar as its `Float32` value (exactly: every float16
/// is a float32), and reads it back as a `Float32`: the argument's field says what it was.
fn restore_float16(
    value: Option<ScalarValue>,
    data_type: &arrow::datatypes::DataType,
) -> Result<Option<ScalarValue>> {
    match value {
        Some(value @ ScalarValue::Float32(_))
            if *data_type == arrow::datatypes::DataType::Float16 =>
        {
            Ok(Some(value.cast_to(data_type)?))
        }
        other => Ok(other),
    }
}

/// `state` as this codec's bytes.
pub fn encode_call_state(state: &CallState) -> Result<Vec<u8>> {
    let mut proto = CallStateProto::default();
    match state {
        CallState::Planned {
            inputs,
            settings,
            limits,
        } => {
            proto.kind = 1;
            encode_inputs(inputs, &mut proto)?;
            proto.settings.clone_from(settings);
            encode_limits(*limits, &mut proto);
        }
        CallState::Typed { tensor, name } => {
            proto.kind = 2;
            proto.tensor = tensor
                .as_ref()
                .map(|tensor| protobuf::Field::try_from(&tensor.to_field("t")))
                .transpose()
                .map_err(|e| codec_error("tensor type", e))?;
            proto.name.clone_from(name);
        }
        CallState::HigherOrder {
            literal_arguments,
            pinned,
        } => {
            proto.kind = 3;
            if let Some(literal) = literal_arguments {
                proto.has_literal_arguments = true;
                proto.literal_arguments.clone_from(literal);
            }
            if let Some(pinned) = pinned {
                encode_inputs(pinned, &mut proto)?;
            }
        }
    }
    let mut buf = Vec::with_capacity(64);
    frame(KIND_CALL, &proto, &mut buf)?;
    Ok(buf)
}

/// `proto` as this codec's payload of `kind`, appended to `buf`.
fn frame(kind: u8, proto: &CallStateProto, buf: &mut Vec<u8>) -> Result<()> {
    buf.extend_from_slice(MAGIC);
    buf.push(kind);
    proto.encode(buf).map_err(|e| codec_error("call state", e))
}

/// The call state in `buf` (after [`MAGIC`] and the kind byte).
fn decode_call_state(buf: &[u8]) -> Result<CallState> {
    let proto = CallStateProto::decode(buf).map_err(|e| codec_error("call state", e))?;
    match proto.kind {
        1 => Ok(CallState::Planned {
            inputs: decode_inputs(&proto)?,
            settings: proto.settings.clone(),
            limits: decode_limits(&proto)?,
        }),
        2 => {
            let tensor = match &proto.tensor {
                Some(field) => {
                    let field =
                        Field::try_from(field).map_err(|e| codec_error("tensor type", e))?;
                    AnyTensorType::from_field(&field).map_err(|e| codec_error("tensor type", e))?
                }
                None => None,
            };
            Ok(CallState::Typed {
                tensor,
                name: proto.name.clone(),
            })
        }
        3 => Ok(CallState::HigherOrder {
            literal_arguments: proto
                .has_literal_arguments
                .then(|| proto.literal_arguments.clone()),
            pinned: if proto.has_inputs {
                Some(decode_inputs(&proto)?)
            } else {
                None
            },
        }),
        other => Err(codec_error("call state", format!("unknown kind {other}"))),
    }
}

fn encode_limits(limits: Limits, proto: &mut CallStateProto) {
    proto.max_tensor_elements = Some(limits.max_tensor_elements as u64);
    proto.max_batch_bytes = Some(limits.max_batch_bytes as u64);
}

/// The limits in `proto`; the defaults when it has none (bytes from a build before them).
fn decode_limits(proto: &CallStateProto) -> Result<Limits> {
    let mut limits = Limits::default();
    for (value, slot) in [
        (proto.max_tensor_elements, &mut limits.max_tensor_elements),
        (proto.max_batch_bytes, &mut limits.max_batch_bytes),
    ] {
        if let Some(value) = value {
            *slot = usize::try_from(value)
                .map_err(|_| codec_error("limits", format!("{value} does not fit usize")))?;
        }
    }
    Ok(limits)
}

/// A tensor aggregate's instance on the wire: its limits, when they are not the defaults (the
/// registered instance, resolved by name, has those).
fn encode_udaf(node: &AggregateUDF, buf: &mut Vec<u8>) -> Result<bool> {
    let Some(tensor) =
        (node.inner().as_ref() as &dyn std::any::Any).downcast_ref::<TensorAggregate>()
    else {
        return Ok(false);
    };
    if tensor.limits() == Limits::default() {
        return Ok(false);
    }
    let mut proto = CallStateProto {
        kind: KIND_AGGREGATE_LIMITS.into(),
        ..CallStateProto::default()
    };
    encode_limits(tensor.limits(), &mut proto);
    frame(KIND_AGGREGATE_LIMITS, &proto, buf)?;
    Ok(true)
}

fn decode_udaf(name: &str, buf: &[u8]) -> Option<Result<Arc<AggregateUDF>>> {
    match payload(buf) {
        Payload::Own(KIND_AGGREGATE_LIMITS, rest) => Some(aggregate_with_limits(name, rest)),
        _ => None,
    }
}

/// The tensor aggregate `name` under the limits in `buf`.
fn aggregate_with_limits(name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
    let proto = CallStateProto::decode(buf).map_err(|e| codec_error("aggregate limits", e))?;
    let limits = decode_limits(&proto)?;
    let tensor = match registry().get(name).map(|d| &d.function) {
        Some(Registered::Aggregate(udaf)) => {
            (udaf.inner().as_ref() as &dyn std::any::Any).downcast_ref::<TensorAggregate>()
        }
        _ => None,
    }
    .ok_or_else(|| {
        codec_error(
            "aggregate limits",
            format!("{name} is not a tensor aggregate"),
        )
    })?;
    Ok(Arc::new(AggregateUDF::new_from_impl(
        tensor.with_limits(limits),
    )))
}

/// What an encoded buffer holds.
enum Payload<'a> {
    /// Another codec's bytes.
    Foreign(&'a [u8]),
    /// This codec's, of this kind.
    Own(u8, &'a [u8]),
}

fn payload(buf: &[u8]) -> Payload<'_> {
    match buf.strip_prefix(MAGIC.as_slice()) {
        Some([kind, rest @ ..]) => Payload::Own(*kind, rest),
        _ => Payload::Foreign(buf),
    }
}

fn encode_udf(node: &ScalarUDF, buf: &mut Vec<u8>) -> Result<bool> {
    match scalar_call_state(node) {
        Some(state) => {
            buf.extend_from_slice(&encode_call_state(&state)?);
            Ok(true)
        }
        None => Ok(false),
    }
}

fn decode_udf(name: &str, buf: &[u8]) -> Option<Result<Arc<ScalarUDF>>> {
    match payload(buf) {
        Payload::Own(KIND_CALL, rest) => Some(
            decode_call_state(rest)
                .and_then(|state| scalar_with_state(name, state))
                .map(Arc::new),
        ),
        _ => None,
    }
}

fn encode_higher_order(node: &HigherOrderUDF, buf: &mut Vec<u8>) -> Result<bool> {
    match higher_order_call_state(node) {
        Some(state) => {
            buf.extend_from_slice(&encode_call_state(&state)?);
            Ok(true)
        }
        None => Ok(false),
    }
}

fn decode_higher_order(name: &str, buf: &[u8]) -> Option<Result<Arc<HigherOrderUDF>>> {
    match payload(buf) {
        Payload::Own(KIND_CALL, rest) => Some(
            decode_call_state(rest)
                .and_then(|state| higher_order_with_state(name, state))
                .map(Arc::new),
        ),
        _ => None,
    }
}

/// Ballista's physical codec, plus tensor calls' state, the root marker of a plan this
/// crate's client submits, and (on decoding) the restoration of what serialisation dropped
/// ([`super::plan::restore_plan`]).
#[derive(Debug, Default)]
pub struct TensorPhysicalCodec {
    inner: BallistaPhysicalExtensionCodec,
}

impl TensorPhysicalCodec {
    /// The codec over Ballista's.
    pub fn new() -> Self {
        Self::default()
    }
}

impl PhysicalExtensionCodec for TensorPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        // The inputs arrive without the metadata serialisation drops: restored before the
        // node over them is built (its schema derives from theirs).
        let inputs = inputs
            .iter()
            .map(|input| {
                let pool = Some(ctx.memory_pool());
                restore_plan(Arc::clone(input), ctx.session_config().options(), pool)
            })
            .collect::<Result<Vec<_>>>()?;
        match payload(buf) {
            Payload::Own(KIND_ROOT, _) => match inputs.as_slice() {
                [input] => Ok(Arc::clone(input)),
                _ => Err(codec_error("plan root", "expected one input")),
            },
            Payload::Own(KIND_WRAPPED, rest) => {
                self.inner.try_decode(rest, &inputs, ctx, proto_converter)
            }
            Payload::Own(kind, _) => Err(codec_error("plan", format!("unknown kind {kind}"))),
            Payload::Foreign(buf) => self.inner.try_decode(buf, &inputs, ctx, proto_converter),
        }
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        if node.downcast_ref::<TensorPlanRoot>().is_some() {
            buf.extend_from_slice(MAGIC);
            buf.push(KIND_ROOT);
            return Ok(());
        }
        let mut inner = Vec::new();
        self.inner.try_encode(node, &mut inner, proto_converter)?;
        buf.extend_from_slice(MAGIC);
        buf.push(KIND_WRAPPED);
        buf.extend_from_slice(&inner);
        Ok(())
    }

    forward_functions!();

    fn try_decode_expr(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn PhysicalExpr>],
        ctx: &PhysicalExprDecodeCtx<'_>,
    ) -> Result<Arc<dyn PhysicalExpr>> {
        self.inner.try_decode_expr(buf, inputs, ctx)
    }

    fn try_encode_expr(
        &self,
        node: &Arc<dyn PhysicalExpr>,
        buf: &mut Vec<u8>,
        ctx: &PhysicalExprEncodeCtx<'_>,
    ) -> Result<()> {
        self.inner.try_encode_expr(node, buf, ctx)
    }

    fn try_decode_udwf(
        &self,
        name: &str,
        buf: &[u8],
    ) -> Result<Arc<datafusion::logical_expr::WindowUDF>> {
        self.inner.try_decode_udwf(name, buf)
    }

    fn try_encode_udwf(
        &self,
        node: &datafusion::logical_expr::WindowUDF,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        self.inner.try_encode_udwf(node, buf)
    }
}

/// Ballista's logical codec, plus tensor calls' state: for logical plans sent to a scheduler
/// (a stock Ballista client's path; this crate's client submits physical plans, see
/// [`super::TensorQueryPlanner`]).
#[derive(Debug, Default)]
pub struct TensorLogicalCodec {
    inner: BallistaLogicalExtensionCodec,
}

impl TensorLogicalCodec {
    /// The codec over Ballista's.
    pub fn new() -> Self {
        Self::default()
    }
}

impl LogicalExtensionCodec for TensorLogicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> Result<Extension> {
        self.inner.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.inner.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: arrow::datatypes::SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn datafusion::catalog::TableProvider>> {
        self.inner
            .try_decode_table_provider(buf, table_ref, schema, ctx)
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn datafusion::catalog::TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        self.inner.try_encode_table_provider(table_ref, node, buf)
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> Result<Arc<dyn FileFormatFactory>> {
        self.inner.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> Result<()> {
        self.inner.try_encode_file_format(buf, node)
    }

    forward_functions!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_state_round_trips_with_metadata_and_literals() {
        let tensor = datafusion_tensor::tensor_type::TensorType::new(
            arrow::datatypes::DataType::Float32,
            vec![2, 3],
        )
        .unwrap()
        .with_permutation(Some(vec![1, 0]))
        .unwrap();
        let x: FieldRef = Arc::new(tensor.to_field("x"));
        let index: FieldRef = Arc::new(Field::new("i", arrow::datatypes::DataType::Utf8, false));
        let state = CallState::Planned {
            inputs: CallInputs {
                fields: vec![x, index],
                scalars: vec![None, Some(ScalarValue::Utf8(Some("0, ::-1".into())))],
            },
            settings: vec![1000, 3],
            limits: Limits {
                max_tensor_elements: 1000,
                max_batch_bytes: 1 << 20,
            },
        };
        let bytes = encode_call_state(&state).unwrap();
        let Payload::Own(KIND_CALL, rest) = payload(&bytes) else {
            panic!("not this codec's bytes");
        };
        assert_eq!(decode_call_state(rest).unwrap(), state);

        let typed = CallState::Typed {
            tensor: Some(AnyTensorType::Fixed(tensor)),
            name: Some("coalesce".into()),
        };
        let bytes = encode_call_state(&typed).unwrap();
        let Payload::Own(KIND_CALL, rest) = payload(&bytes) else {
            panic!("not this codec's bytes");
        };
        assert_eq!(decode_call_state(rest).unwrap(), typed);

        // A variable-shape literal's type (uniform shape, permutation, dim names) too.
        let variable = datafusion_tensor::variable_shape::VariableShapeType::new(
            arrow::datatypes::DataType::UInt8,
            3,
        )
        .unwrap()
        .with_dim_names(Some(vec!["c".into(), "h".into(), "w".into()]))
        .unwrap()
        .with_permutation(Some(vec![2, 0, 1]))
        .unwrap()
        .with_uniform_shape(Some(vec![Some(3), None, None]))
        .unwrap();
        let typed = CallState::Typed {
            tensor: Some(AnyTensorType::Variable(variable)),
            name: None,
        };
        let bytes = encode_call_state(&typed).unwrap();
        let Payload::Own(KIND_CALL, rest) = payload(&bytes) else {
            panic!("not this codec's bytes");
        };
        assert_eq!(decode_call_state(rest).unwrap(), typed);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [&b""[..], b"\x08\xff\xff", b"\x0a\x03abc", &[0xff; 16]] {
            let _ = decode_call_state(bytes);
        }
        assert!(
            decode_udf("tensor_get", b"DFT\x01\x01\xff\xff")
                .unwrap()
                .is_err()
        );
        assert!(decode_udf("tensor_get", b"plain").is_none());
    }
}
