import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ListPipelineServiceToken } from '@svc/composition';
import { DomainError, LIST_FORMATS, type ListFormat, type ListPipelineService } from '@svc/domain';
import type { Container } from 'inversify';

function listIds(value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((id) => Number.isInteger(id)))
    throw new Error('--list takes list ids (whole numbers)');
  return value.map(Number);
}

/** `svc lists refresh`: fetches and compiles the catalogue's sources now (all lists, or those named). */
export async function refreshListsOperation(container: Container, args: Record<string, unknown>) {
  const pipeline = await container.getAsync<ListPipelineService>(ListPipelineServiceToken);
  return pipeline.refresh({
    ...(args.lists === undefined ? {} : { lists: listIds(args.lists) ?? [] }),
    allowShrink: args.allowShrink === true,
  });
}

/** `svc lists import --list ID FILE`: compiles a local file as the list's content. */
export async function importListOperation(container: Container, args: Record<string, unknown>) {
  const listId = Number(args.list);
  if (!Number.isInteger(listId)) throw new Error('--list takes a list id');
  if (typeof args.file !== 'string' || args.file === '') throw new Error('FILE is required');
  const format = args.format;
  if (format !== undefined && !LIST_FORMATS.some((known) => known === format))
    throw new Error(`--format is one of ${LIST_FORMATS.join(', ')}`);
  const path = resolve(args.file);
  await access(path);
  const pipeline = await container.getAsync<ListPipelineService>(ListPipelineServiceToken);
  try {
    return await pipeline.importList(listId, createReadStream(path), format as ListFormat | undefined, {
      allowShrink: args.allowShrink === true,
    });
  } catch (error) {
    // The code leads the message, as the CLI prints problem codes (exit 1), through the control socket too.
    if (error instanceof DomainError && error.code === 'list_refused')
      throw new Error(`list_refused: ${error.message}`, { cause: error });
    throw error;
  }
}
