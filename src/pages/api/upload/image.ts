import type { APIContext } from 'astro';
import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json, readJson, refuseUnknownFields } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteImage, uploadImage } from '#server/services/images.ts';
import { LIMITS } from '#shared/constants.ts';
import { IMAGE_MESSAGES, imageDeleteSchema } from '#shared/schemas/upload.ts';

export const prerender = false;

/** Upload answers carry `success` (SPEC 3, Upload result): a failure is `{ success: false, message }`. */
function withSuccessFlag(handle: (ctx: APIContext) => Promise<Response>) {
  return defineHandler(async (ctx) => {
    try {
      return await handle(ctx);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      return json({ success: false, message: err.message }, { status: err.status, headers: err.headers });
    }
  });
}

/** The bytes and name of the one file of the `image` field (SPEC 5: one file only, at most 5MB). */
async function imageFile(request: Request): Promise<{ bytes: Buffer; name: string }> {
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get('content-type') ?? '')) {
    throw new HttpError(415, 'Send the image as multipart/form-data in the field "image"');
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch (err) {
    // The HTTP layer stops a body past its limit with a 413 while it is read.
    if (err instanceof HttpError) throw err;
    throw new HttpError(400, 'Malformed multipart body');
  }
  const files = [...form.values()].filter((v): v is File => typeof v !== 'string');
  const image = form.get('image');
  if (!(image instanceof File)) throw new HttpError(400, 'No image file was sent (field "image")');
  if (files.length > 1) throw new HttpError(400, 'Only one image can be uploaded at a time');
  if (image.size > LIMITS.imageMaxBytes) throw new HttpError(413, IMAGE_MESSAGES.tooLarge);
  if (image.size === 0) throw new HttpError(400, IMAGE_MESSAGES.invalidType);
  // Only the bytes are kept: the parsed form and its File are let go here.
  return { bytes: Buffer.from(await image.arrayBuffer()), name: image.name };
}

export const POST = withSuccessFlag(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  // The body is read when the upload's turn to be processed comes (one image at a time).
  const result = await uploadImage(await getDb(), () => imageFile(request), actor);
  return json({ success: true, url: result.url, message: IMAGE_MESSAGES.uploaded, width: result.width, height: result.height });
});

export const DELETE = withSuccessFlag(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const body = await readJson(request);
  refuseUnknownFields(imageDeleteSchema, body);
  const parsed = imageDeleteSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'Invalid image file name');
  const { filename } = parsed.data;
  const { kept } = await deleteImage(await getDb(), filename, actor);
  return json({ success: true, message: kept ? 'Image kept: it is still used on the site' : 'Image deleted' });
});
