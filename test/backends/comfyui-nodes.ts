/**
 * ComfyUI's prompt validation (execution.py validate_prompt), for the node types the shipped
 * workflows use: each node's class must exist, every required input (INPUT_TYPES "required" of
 * the node in nodes.py) must be present, and a link [node id, output index] must point at an
 * existing node's existing output. ComfyUI answers 400 prompt_outputs_failed_validation with
 * node_errors when a node fails (`required_input_missing`, as for LoadImageMask without image).
 */
export const NODE_TYPES: Record<string, { required: readonly string[]; outputs: number; output?: boolean }> = {
  CheckpointLoaderSimple: { required: ['ckpt_name'], outputs: 3 },
  LoadImage: { required: ['image'], outputs: 2 },
  LoadImageMask: { required: ['image', 'channel'], outputs: 1 },
  ImageScale: { required: ['image', 'upscale_method', 'width', 'height', 'crop'], outputs: 1 },
  VAEEncode: { required: ['pixels', 'vae'], outputs: 1 },
  VAEEncodeForInpaint: { required: ['pixels', 'vae', 'mask', 'grow_mask_by'], outputs: 1 },
  CLIPTextEncode: { required: ['text', 'clip'], outputs: 1 },
  KSampler: { required: ['model', 'seed', 'steps', 'cfg', 'sampler_name', 'scheduler', 'positive', 'negative', 'latent_image', 'denoise'], outputs: 1 },
  VAEDecode: { required: ['samples', 'vae'], outputs: 1 },
  SaveImage: { required: ['images', 'filename_prefix'], outputs: 0, output: true },
};

export type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

interface NodeError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

/** null when ComfyUI would queue the prompt; else its 400 body. */
export function validateWorkflow(workflow: Workflow): { error: NodeError; node_errors: Record<string, { errors: NodeError[]; class_type: string; dependent_outputs: string[] }> } | null {
  const nodeErrors: Record<string, { errors: NodeError[]; class_type: string; dependent_outputs: string[] }> = {};
  const outputs = Object.entries(workflow).filter(([, n]) => NODE_TYPES[n.class_type]?.output);
  for (const [id, node] of Object.entries(workflow)) {
    const type = NODE_TYPES[node.class_type];
    if (!type) {
      return { error: { type: 'invalid_prompt', message: `Cannot execute because node ${node.class_type} does not exist.`, details: `Node ID '#${id}'`, extra_info: {} }, node_errors: {} };
    }
    const errors: NodeError[] = [];
    for (const name of type.required) {
      const value = node.inputs?.[name];
      if (value === undefined) {
        errors.push({ type: 'required_input_missing', message: 'Required input is missing', details: name, extra_info: { input_name: name } });
        continue;
      }
      if (Array.isArray(value)) {
        const [from, index] = value as [string, number];
        const source = workflow[String(from)];
        const sourceType = source ? NODE_TYPES[source.class_type] : undefined;
        if (!source || !sourceType || typeof index !== 'number' || index < 0 || index >= sourceType.outputs) {
          errors.push({ type: 'bad_linked_input', message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]', details: `${name}, ${JSON.stringify(value)}`, extra_info: { input_name: name } });
        }
      }
    }
    if (errors.length > 0) nodeErrors[id] = { errors, class_type: node.class_type, dependent_outputs: outputs.map(([o]) => o) };
  }
  if (outputs.length === 0) return { error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} }, node_errors: {} };
  if (Object.keys(nodeErrors).length > 0) return { error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} }, node_errors: nodeErrors };
  return null;
}
