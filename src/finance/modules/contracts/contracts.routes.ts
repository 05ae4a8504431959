import { registerRecordRoutes } from '../../http/record-routes.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentContract } from './contracts.presenter.js';
import {
  ContractCreateBody,
  ContractListQuery,
  ContractListSchema,
  ContractParams,
  ContractSchema,
  ContractUpdateBody,
} from './contracts.schema.js';

/** Contracts of the current account: any member reads, writes and cancels; admins delete. */
export const contractsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.contracts;
  registerRecordRoutes(app, {
    path: '/api/contracts',
    tag: 'contracts',
    noun: 'Contract',
    schemas: {
      record: ContractSchema,
      list: ContractListSchema,
      query: ContractListQuery,
      params: ContractParams,
      create: ContractCreateBody,
      update: ContractUpdateBody,
    },
    present: presentContract,
    service: svc,
    summaries: {
      list: 'List contracts (latest start date first); filters: from/to on startDate, status',
      create: 'Create an active contract (records contract.created)',
      show: 'Show a contract',
      update: 'Change the fields sent (PUT and PATCH alike); the status changes through cancel',
      delete: 'Delete a contract (administrators)',
    },
    actions: [
      {
        name: 'cancel',
        summary: 'Cancel an active contract (cancelledAt now; records contract.cancelled); 409 when already cancelled',
        message: 'Contract cancelled',
        run: (ctx, id) => svc.cancel(ctx, id),
      },
    ],
  });
};
