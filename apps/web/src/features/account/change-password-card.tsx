import { type ChangePasswordForm, changePasswordFormSchema } from '@bytegate/contracts/account';
import { messages } from '@bytegate/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useChangePassword } from '../../api/use-account.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordCard() {
  const changePassword = useChangePassword();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setServerError(null);
    try {
      await changePassword.mutateAsync({ currentPassword, newPassword });
      toast.success(messages.passwordUpdated);
      form.reset(empty);
    } catch (error) {
      const message = errorMessage(error, messages.passwordUpdateFailed);
      setServerError(message);
      toast.error(message);
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>At least 8 characters. Your other devices will be signed out.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-3">
          {serverError ? (
            <Alert tone="error" className="sm:col-span-3">
              {serverError}
            </Alert>
          ) : null}
          <FormField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...form.register('currentPassword')}
          />
          <FormField
            label="New Password"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword?.message}
            {...form.register('newPassword')}
          />
          <FormField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...form.register('confirmPassword')}
          />
        </CardContent>
        <CardFooter>
          <Button type="submit" isLoading={isSubmitting}>
            Update Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
