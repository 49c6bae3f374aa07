import type { AppForm } from '../../db/entities/App';

/** A starting point for an app: its name, description and form; the caller still names the agent and slug. */
export interface AppTemplate {
  id: string;
  name: string;
  description: string;
  form: AppForm;
}

/** The built-in templates of `GET /v1/app-templates` (docs/api/apps.md#templates). */
export const APP_TEMPLATES: readonly AppTemplate[] = [
  {
    id: 'summarizer',
    name: 'Summarizer',
    description: 'Paste a text and get a short summary.',
    form: {
      fields: [
        { name: 'text', label: 'Text to summarize', type: 'textarea', required: true },
        { name: 'length', label: 'Length', type: 'select', required: false, options: ['short', 'medium', 'long'] },
      ],
    },
  },
  {
    id: 'translator',
    name: 'Translator',
    description: 'Translate a text into another language.',
    form: {
      fields: [
        { name: 'text', label: 'Text', type: 'textarea', required: true },
        {
          name: 'language',
          label: 'Target language',
          type: 'select',
          required: true,
          options: ['English', 'French', 'German', 'Spanish', 'Italian', 'Portuguese'],
        },
      ],
    },
  },
  {
    id: 'support-reply',
    name: 'Support reply',
    description: "Describe a customer's problem and get a draft reply.",
    form: {
      fields: [
        { name: 'customerName', label: 'Customer name', type: 'text', required: false },
        { name: 'message', label: "Customer's message", type: 'textarea', required: true },
      ],
    },
  },
  {
    id: 'lead-qualifier',
    name: 'Lead qualifier',
    description: 'Score a sales lead from a few facts about it.',
    form: {
      fields: [
        { name: 'company', label: 'Company', type: 'text', required: true },
        { name: 'employees', label: 'Number of employees', type: 'number', required: false },
        { name: 'notes', label: 'Notes', type: 'textarea', required: false },
      ],
    },
  },
];

export function findTemplate(id: string): AppTemplate | undefined {
  return APP_TEMPLATES.find((t) => t.id === id);
}
