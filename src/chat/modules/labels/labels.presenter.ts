import type { Label } from './labels.repository.js';

/** A label as Chatwoot renders it. */
export function presentLabel(label: Label) {
  return {
    id: label.id,
    title: label.title,
    description: label.description,
    color: label.color,
    show_on_sidebar: label.show_on_sidebar === 1,
  };
}
