import { describe, expect, it } from 'vitest';
import { fieldErrors } from './field-errors.js';

describe("a refused form's field problems", () => {
  const fields = ['name', 'email', 'phone_number', 'custom_attributes.tier'];

  it('puts each sentence beside its field, whatever spelling of the path the server used', () => {
    const out = fieldErrors(
      [
        { field: 'email', message: 'is not an e-mail address' },
        { field: 'contact.phone_number', message: 'must be E.164' },
        { field: '/custom_attributes/tier', message: 'must be one of gold, silver' },
        { field: 'email', message: 'a second sentence' },
      ],
      fields,
    );
    expect(out.byField).toEqual({
      email: 'is not an e-mail address',
      phone_number: 'must be E.164',
      'custom_attributes.tier': 'must be one of gold, silver',
    });
    expect(out.rest).toEqual([]);
  });

  it('keeps apart what is about no field of the form', () => {
    expect(fieldErrors([{ field: 'blocked', message: 'no' }], fields)).toEqual({
      byField: {},
      rest: [{ field: 'blocked', message: 'no' }],
    });
  });
});
